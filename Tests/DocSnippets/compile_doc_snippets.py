#!/usr/bin/env python3
"""Compile every ```swift snippet of README.md and docs/*.md against the repository's packages.

Usage (from the repository root; `make test-doc-snippets` runs it):

    python3 Tests/DocSnippets/compile_doc_snippets.py [--swift SWIFT] [--list]

What it does
------------
1. Reads README.md and docs/*.md and collects every fenced block whose info string starts with `swift`.
2. Writes one SwiftPM package to `.build/doc-snippets/package` (generated on every run, never checked in), with one
   library target per Markdown file (`Snippets_README`, `Snippets_sdk`, ...) and one source file per snippet. The
   package depends by path on Packages/DataConnect (FirebaseCore, FirebaseAuth, FirebaseDataConnect), Packages/DataConnectTesting
   (DataConnectTesting), Packages/DataConnectEmulator (DataConnectEmulator) and Apps/FirebaseDataConnectGenerated.
   Files are rewritten only when their bytes change, and the build uses the repository's `.build` as its scratch
   directory, so a second run only recompiles the snippets that changed.
3. Runs one `swift build` of that package and prints `compiled N of M Swift snippets; K skipped with a marker`.
   It exits 1 when a snippet does not compile (naming the snippet's `file:line` and the compiler's errors, which
   point into the Markdown file itself through `#sourceLocation`) or when a marker is malformed. SwiftPM stops at
   the first target that fails, so after a failure each target is built alone, to report every failing snippet.

How a snippet becomes Swift
---------------------------
- A snippet's `import` lines (and `#if canImport(...)` blocks of imports) go at the top of its file. A snippet
  WITH imports is a complete file: it gets only its own imports, as a reader who copies it would. A snippet
  WITHOUT imports is a fragment: it gets the imports of its context (below).
- Top-level declarations stay at file scope: a line at the snippet's left margin that starts a `struct`, `class`,
  `enum`, `extension`, `protocol`, `actor` or `typealias` (after any attributes and modifiers), or any
  attribute-led declaration (`@Suite struct`, `@Test func`, `@main struct`), up to the line where its braces
  close. All snippets of one Markdown file share one module, so a type one snippet declares is visible to the
  later snippets of the same page, as it is to the reader.
- Every other line is a statement. A snippet's statements go, in order, into one
  `func ...() async throws { ... }`. In a fragment that function's parameters are the context's common names
  (`connector`, `movies`, `dataConnect`, `ref`, `id`, `genre`, `emulator`, ...), so a fragment may use them
  without declaring them; a snippet that declares one of them shadows the parameter. A complete file's function
  has no parameters.

Markers
-------
An HTML comment on the line right before the opening fence (invisible on GitHub):

    <!-- snippet: skip (why this block cannot compile, e.g. a Package.swift fragment) -->
    <!-- snippet: context emulator -->

`skip` needs a reason in parentheses. `context NAME` picks a prelude from CONTEXTS below:
- `app` (the default): the generated movies SDK, FirebaseDataConnect, DataConnectTesting, Foundation and Testing;
  parameters `connector`/`movies` (MoviesConnector), `dataConnect`, `ref` (listMoviesByGenre's ref), `id`,
  `genre`, `emulator` (TestEmulator);
- `test-support`: `app`, plus the real `Recorder` of DataConnectTesting's own tests (Support/), copied into the
  module on each run, and `DataConnectTestSupport` (`HangGuard`, `Loopback`), the repository's shared test support;
- `emulator`: the emulator as a library (`Emulator`, `SubscriptionHub`, `ManualClock`); parameters `emulator`, `hub`.

A `<!-- snippet: ... -->` comment that is malformed, names an unknown context, or is not followed by a ```swift
fence fails the run. A snippet is never skipped without a marker.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The generated package at a fixed path, so that a second run is incremental; it builds into the repository's own
# .build, as `make test`'s packages do, so the libraries the snippets use are the ones already compiled.
PACKAGE_DIR = os.path.join(ROOT, ".build", "doc-snippets", "package")
SCRATCH_DIR = os.path.join(ROOT, ".build")
DOCUMENTS = ["README.md", "docs/*.md"]

LIST_BY_GENRE_REF = "QueryRefObservation<ListMoviesByGenreQuery.Data, ListMoviesByGenreQuery.Variables>"


@dataclass
class Context:
    """A named prelude for fragments: the imports of their file and the parameters of their function."""

    imports: list
    parameters: list  # (name, type)
    support: tuple = ()  # repository files compiled into the module too (copied on each run, never checked in)


APP_IMPORTS = ["DataConnectTesting", "FirebaseDataConnect", "FirebaseDataConnectGenerated", "Foundation", "Testing"]
APP_PARAMETERS = [
    ("connector", "MoviesConnector"),
    ("movies", "MoviesConnector"),
    ("dataConnect", "DataConnect"),
    ("ref", LIST_BY_GENRE_REF),
    ("id", "UUID"),
    ("genre", "String"),
    ("emulator", "TestEmulator"),
]
TESTING_SUPPORT = "Packages/DataConnectTesting/Tests/DataConnectTestingTests/Support"

CONTEXTS = {
    # App code on the generated movies SDK, and the app's tests.
    "app": Context(imports=APP_IMPORTS, parameters=APP_PARAMETERS),
    # The same, with the repository's own test helpers a page names (`Recorder`, `Loopback`), compiled from
    # their real files and package so that the page and the helpers cannot disagree.
    "test-support": Context(
        imports=APP_IMPORTS + ["DataConnectTestSupport"],
        parameters=APP_PARAMETERS,
        support=tuple(f"{TESTING_SUPPORT}/{name}.swift" for name in ["Recorder"]),
    ),
    # The emulator as a library (`Emulator`, `SubscriptionHub`, `ManualClock`), as its own tests use it.
    "emulator": Context(
        imports=["DataConnectEmulator", "Foundation", "Testing"],
        parameters=[("emulator", "Emulator"), ("hub", "SubscriptionHub")],
    ),
}
DEFAULT_CONTEXT = "app"

# The products the generated package's targets depend on, by package path (relative to the repository).
DEPENDENCIES = [
    ("Packages/DataConnect", ["FirebaseCore", "FirebaseAuth", "FirebaseDataConnect"]),
    ("Packages/DataConnectTesting", ["DataConnectTesting"]),
    ("Packages/DataConnectTestSupport", ["DataConnectTestSupport"]),
    ("Packages/DataConnectEmulator", ["DataConnectEmulator"]),
    ("Apps/FirebaseDataConnectGenerated", ["FirebaseDataConnectGenerated"]),
]

MARKER = re.compile(r"^\s*<!--\s*snippet:(.*?)-->\s*$")
SKIP = re.compile(r"^\s*skip\s*\((.*\S.*)\)\s*$")
CONTEXT = re.compile(r"^\s*context\s+([A-Za-z][\w-]*)\s*$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
IMPORT = re.compile(r"^(@[\w]+\s+)*import\s+(\w+\s+)?[\w.]+\s*(//.*)?$")
ATTRIBUTE = r"@[A-Za-z_][\w.]*(\([^()]*(\([^()]*\)[^()]*)*\))?\s+"
MODIFIERS = r"((public|private|fileprivate|internal|package|open|final|nonisolated|indirect)\s+)*"
DECLARATION = re.compile(
    rf"^({ATTRIBUTE})*{MODIFIERS}(struct|class|enum|extension|protocol|actor|typealias)\b"
    rf"|^({ATTRIBUTE})+{MODIFIERS}(func|var|let)\b"
)
ATTRIBUTE_ONLY = re.compile(r"^@[A-Za-z_][\w.]*(\(.*\))?\s*$")
RAW_STRING = re.compile(r'(#+)".*?"\1')
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


@dataclass
class Snippet:
    path: str  # relative to the repository
    line: int  # of the first code line (after the fence)
    fence_line: int
    lines: list
    skip_reason: str = None
    context: str = DEFAULT_CONTEXT
    target: str = None  # the generated package's target (one per Markdown file)
    generated: str = None  # the generated file, relative to the package

    @property
    def location(self):
        return f"{self.path}:{self.fence_line}"


def read_snippets(path):
    """Every ```swift block of one Markdown file, with the marker on the line before its fence."""
    snippets, problems = [], []
    with open(os.path.join(ROOT, path), encoding="utf-8") as file:
        lines = file.read().split("\n")
    index, pending = 0, None  # pending: (line number, directive) of a marker waiting for its fence
    while index < len(lines):
        line = lines[index]
        marker = MARKER.match(line)
        fence = FENCE.match(line)
        if marker:
            if pending:
                problems.append(f"{path}:{pending[0]}: snippet marker is not followed by a ```swift fence")
            pending = (index + 1, marker.group(1))
            index += 1
            continue
        if not fence:
            if pending:
                problems.append(f"{path}:{pending[0]}: snippet marker is not followed by a ```swift fence")
                pending = None
            index += 1
            continue
        _, ticks, language = fence.groups()
        end = index + 1
        while end < len(lines) and lines[end].strip() != ticks:
            end += 1
        body = lines[index + 1 : end]
        if language.lower() == "swift":
            snippet = Snippet(path=path, line=index + 2, fence_line=index + 1, lines=body)
            if pending:
                directive = pending[1]
                if skip := SKIP.match(directive):
                    snippet.skip_reason = skip.group(1).strip()
                elif context := CONTEXT.match(directive):
                    if context.group(1) not in CONTEXTS:
                        known = ", ".join(sorted(CONTEXTS))
                        problems.append(f"{path}:{pending[0]}: unknown snippet context '{context.group(1)}' ({known})")
                    snippet.context = context.group(1)
                else:
                    problems.append(
                        f"{path}:{pending[0]}: malformed snippet marker '<!-- snippet:{directive}-->'; write "
                        "'<!-- snippet: skip (reason) -->' or '<!-- snippet: context NAME -->'"
                    )
            snippets.append(snippet)
        elif pending:
            problems.append(f"{path}:{pending[0]}: snippet marker is before a ```{language} fence, not ```swift")
        pending = None
        index = end + 1
    if pending:
        problems.append(f"{path}:{pending[0]}: snippet marker is not followed by a ```swift fence")
    return snippets, problems


def code_of(line):
    """The line without string literals and its trailing comment, for counting braces."""
    return STRING.sub('""', RAW_STRING.sub('""', line)).split("//")[0]


def split(snippet):
    """The snippet's lines as (imports, declarations, statements); each chunk is a list of (doc line, text)."""
    text = [line.rstrip() for line in snippet.lines]
    margin = min((len(line) - len(line.lstrip()) for line in text if line.strip()), default=0)
    text = [line[margin:] for line in text]
    imports, declarations, statements = [], [], []
    index = 0
    while index < len(text):
        line, number = text[index], snippet.line + index
        if IMPORT.match(line):
            imports.append((number, line))
            index += 1
        elif line.startswith("#if canImport") and (close := _import_block_end(text, index)) is not None:
            imports.extend((snippet.line + i, text[i]) for i in range(index, close + 1))
            index = close + 1
        elif DECLARATION.match(line) or (ATTRIBUTE_ONLY.match(line) and _declaration_follows(text, index)):
            start, depth, opened = index, 0, False
            while index < len(text):
                current, code = text[index], code_of(text[index])
                opened = opened or "{" in code
                depth += code.count("{") - code.count("}")
                index += 1
                continues = ATTRIBUTE_ONLY.match(current) or current.endswith((",", "(", ":", "=", "->"))
                if depth <= 0 and (opened or not continues):
                    break
            declarations.append([(snippet.line + i, text[i]) for i in range(start, index)])
        else:
            if statements and statements[-1][-1][0] == number - 1:
                statements[-1].append((number, line))
            else:
                statements.append([(number, line)])
            index += 1
    return imports, declarations, statements


def _import_block_end(text, start):
    """The `#endif` line of an `#if canImport(...)` block holding only imports, or `None`."""
    for index in range(start + 1, len(text)):
        if text[index].startswith("#endif"):
            return index
        if not (IMPORT.match(text[index]) or text[index].startswith("#else")):
            return None
    return None


def _declaration_follows(text, index):
    """Whether the attribute-only line at `index` belongs to a declaration (not to a statement)."""
    for line in text[index + 1 :]:
        if ATTRIBUTE_ONLY.match(line):
            continue
        return bool(DECLARATION.match(line) or re.match(rf"^{MODIFIERS}(func|var|let)\b", line))
    return False


def swift_file(snippet, function_name):
    """One snippet's Swift file: its imports (or its context's), its declarations, its statements in a function.

    `#sourceLocation` lines make the compiler's diagnostics name the Markdown file and line.
    """
    imports, declarations, statements = split(snippet)
    path = snippet.path
    complete = bool(imports)
    out = [f"// {snippet.location}: generated by Tests/DocSnippets/compile_doc_snippets.py. Do not edit."]
    if complete:
        for number, line in imports:
            out += [f'#sourceLocation(file: "{path}", line: {number})', line]
        out.append("#sourceLocation()")
    else:
        out += [f"import {module}" for module in CONTEXTS[snippet.context].imports]
    for declaration in declarations:
        out.append(f'#sourceLocation(file: "{path}", line: {declaration[0][0]})')
        out += [line for _, line in declaration]
        out.append("#sourceLocation()")
    code = [group for group in statements if any(_is_code(line) for _, line in group)]
    for group in statements:
        if group not in code and any(line.strip() for _, line in group):
            out += [line for _, line in group]  # only comments: they need no function
    statements = code
    if statements:
        parameters = "" if complete else ", ".join(f"{n}: {t}" for n, t in CONTEXTS[snippet.context].parameters)
        out.append(f"func {function_name}({parameters}) async throws {{")
        for group in statements:
            out.append(f'#sourceLocation(file: "{path}", line: {group[0][0]})')
            out += [line for _, line in group]
        out.append("#sourceLocation()")
        out.append("}")
    return "\n".join(out) + "\n"


def _is_code(line):
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith("//")


def target_name(path):
    stem = os.path.splitext(os.path.basename(path))[0]
    return "Snippets_" + re.sub(r"\W", "_", stem)


def manifest(targets):
    packages = "\n".join(f'        .package(path: "../../../{path}"),' for path, _ in DEPENDENCIES)
    products = "\n".join(
        f'                .product(name: "{product}", package: "{os.path.basename(path)}"),'
        for path, names in DEPENDENCIES
        for product in names
    )
    target_list = "\n".join(
        f'        .target(\n            name: "{name}",\n            dependencies: [\n{products}\n            ]\n        ),'
        for name in targets
    )
    return f"""// swift-tools-version:6.0
// Generated by Tests/DocSnippets/compile_doc_snippets.py from README.md and docs/*.md. Do not edit.
import PackageDescription

let package = Package(
    name: "DocSnippets",
    dependencies: [
{packages}
    ],
    targets: [
{target_list}
    ],
    swiftLanguageModes: [.v6]
)
"""


def write_if_changed(path, content):
    if os.path.exists(path):
        with open(path, encoding="utf-8") as file:
            if file.read() == content:
                return False
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as file:
        file.write(content)
    return True


def generate(snippets):
    """Write the package (only the files whose bytes change); returns the names of its targets."""
    files, targets = {}, set()
    for snippet in snippets:
        if snippet.skip_reason is not None:
            continue
        target = target_name(snippet.path)
        name = f"L{snippet.fence_line}"
        snippet.target = target
        snippet.generated = os.path.join("Sources", target, f"{name}.swift")
        targets.add(target)
        files[snippet.generated] = swift_file(snippet, f"snippet{name}")
        for support in CONTEXTS[snippet.context].support:
            with open(os.path.join(ROOT, support), encoding="utf-8") as file:
                copied = f"// Copied from {support} by Tests/DocSnippets/compile_doc_snippets.py.\n" + file.read()
            files[os.path.join("Sources", target, "Support_" + os.path.basename(support))] = copied
    write_if_changed(os.path.join(PACKAGE_DIR, "Package.swift"), manifest(sorted(targets)))
    for relative, content in files.items():
        write_if_changed(os.path.join(PACKAGE_DIR, relative), content)
    # Remove what no snippet produces any more, and drop SwiftPM's cached build plans when the set of files changed
    # (SwiftPM 6.3 reuses a plan that misses added files and stops on removed ones; see the Makefile).
    sources = os.path.join(PACKAGE_DIR, "Sources")
    for directory, _, names in os.walk(sources, topdown=False):
        for name in names:
            relative = os.path.relpath(os.path.join(directory, name), PACKAGE_DIR)
            if relative not in files:
                os.remove(os.path.join(directory, name))
        if not os.listdir(directory):
            os.rmdir(directory)
    file_set = "\n".join(sorted(files)) + "\n"
    if write_if_changed(os.path.join(SCRATCH_DIR, "snippet-file-set"), file_set):
        for plan in glob.glob(os.path.join(SCRATCH_DIR, "*", "*", "description.json")):
            os.remove(plan)
    return sorted(targets)


# What SwiftPM prints after a compiler error (the error itself is reported with its snippet).
SWIFTPM_SUMMARY = re.compile(r"^error: (cancelled|.* command failed with exit code \d+.*)$")
DIAGNOSTIC = re.compile(r"^(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<column>\d+): error: (?P<message>.*)$")


def owner(snippets, path, line):
    """The snippet a diagnostic at path:line belongs to (its Markdown lines, or its generated file)."""
    for snippet in snippets:
        if snippet.skip_reason is not None:
            continue
        if path == snippet.path and snippet.line <= line < snippet.line + len(snippet.lines):
            return snippet
        if os.path.abspath(os.path.join(PACKAGE_DIR, snippet.generated)) == os.path.abspath(path):
            return snippet
    return None


def build(swift, log, target=None):
    """One `swift build` of the package (or of one target); returns (exit status, output)."""
    command = [swift, "build", "--package-path", PACKAGE_DIR, "--scratch-path", SCRATCH_DIR]
    if target:
        command += ["--target", target]
    result = subprocess.run(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    log.write(f"$ {' '.join(command)}\n{result.stdout}\n")
    return result.returncode, result.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"))
    parser.add_argument("--list", action="store_true", help="list the snippets and their markers, build nothing")
    arguments = parser.parse_args()

    snippets, problems = [], []
    for pattern in DOCUMENTS:
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            found, wrong = read_snippets(os.path.relpath(path, ROOT))
            snippets += found
            problems += wrong
    skipped = [s for s in snippets if s.skip_reason is not None]
    compiled = [s for s in snippets if s.skip_reason is None]
    if arguments.list:
        for snippet in snippets:
            what = f"skip ({snippet.skip_reason})" if snippet.skip_reason is not None else f"context {snippet.context}"
            print(f"{snippet.location}: {what}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        print(f"error: {len(problems)} malformed or misplaced snippet marker(s)", file=sys.stderr)
        return 1
    if arguments.list:
        return 0

    targets = generate(snippets)
    documents = len({s.path for s in compiled})
    print(f"building {len(compiled)} Swift snippets of {documents} documents in {os.path.relpath(PACKAGE_DIR, ROOT)}")
    sys.stdout.flush()
    log_path = os.path.join(SCRATCH_DIR, "build.log")
    os.makedirs(SCRATCH_DIR, exist_ok=True)
    with open(log_path, "w", encoding="utf-8") as log:
        status, output = build(arguments.swift, log)
        outputs = [output]
        if status != 0:
            # SwiftPM stops at the first target that fails; build each target alone to report every snippet.
            for target in targets:
                outputs.append(build(arguments.swift, log, target)[1])

    failures, unowned = {}, []
    for line in "\n".join(outputs).splitlines():
        diagnostic = DIAGNOSTIC.match(line)
        if not diagnostic:
            summary = line.lstrip().startswith(("|", "`")) or SWIFTPM_SUMMARY.match(line)
            if status != 0 and "error:" in line and not summary and line not in unowned:
                unowned.append(line)
            continue
        path = diagnostic["file"]
        path = os.path.relpath(path, ROOT) if os.path.isabs(path) else path
        snippet = owner(snippets, path, int(diagnostic["line"]))
        message = f"{path}:{diagnostic['line']}:{diagnostic['column']}: error: {diagnostic['message']}"
        if snippet is None:
            if message not in unowned:
                unowned.append(message)
        elif message not in failures.setdefault(snippet.location, []):
            failures[snippet.location].append(message)
    if status == 0:
        print(f"compiled {len(compiled)} of {len(snippets)} Swift snippets; {len(skipped)} skipped with a marker")
        for snippet in skipped:
            print(f"  skipped {snippet.location}: {snippet.skip_reason}")
        return 0
    order = {snippet.location: index for index, snippet in enumerate(snippets)}
    for location, messages in sorted(failures.items(), key=lambda item: order[item[0]]):
        print(f"error: the Swift snippet at {location} does not compile:", file=sys.stderr)
        for message in messages:
            print(f"    {message}", file=sys.stderr)
    if unowned:
        print("error: the build failed outside the snippets:", file=sys.stderr)
        for message in unowned:
            print(f"    {message}", file=sys.stderr)
    print(
        f"error: compiled {len(compiled) - len(failures)} of {len(snippets)} Swift snippets; {len(failures)} failed; "
        f"{len(skipped)} skipped with a marker (the compiler's output is in {os.path.relpath(log_path, ROOT)})",
        file=sys.stderr,
    )
    return 1


if __name__ == "__main__":
    sys.exit(main())
