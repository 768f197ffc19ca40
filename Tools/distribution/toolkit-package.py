#!/usr/bin/python3
"""Writes the toolkit's source package: one SwiftPM package with the SDK and the test harness.

usage: toolkit-package.py REPOSITORY OUT

A project made by `dataconnect init` depends on `FirebaseDataConnect` (the SDK; `FirebaseAuth` signs its users
in) and `DataConnectTesting` (the in-process emulator for its tests). In this repository they live in several local packages that depend on each
other by path, which SwiftPM allows only in a root package; an installed toolkit is fetched by URL and version,
so it must be one package. This script reads each local package's manifest (`swift package dump-package`), keeps
the library targets those products need, and writes OUT/Package.swift with them, their sources under
OUT/Sources/<target>, and the plugins (and the folders they read) they use.
"""

import json
import os
import shutil
import subprocess
import sys

# DataConnectTestSupport for its ProcessSpawning target, which the harness's PostgreSQL clusters start servers with.
PACKAGES = [
    "DataConnectTestSupport", "DataConnectKit", "DataConnectCache", "DataConnect", "DataConnectEmulator",
    "DataConnectTesting",
]
PRODUCTS = ["FirebaseCore", "FirebaseAuth", "FirebaseDataConnect", "DataConnectTesting"]
# Folders next to a package's Package.swift that one of its plugins reads (ConsoleAssetsPlugin: Console/).
PLUGIN_FOLDERS = {"ConsoleAssetsPlugin": ["Console"]}


def dump(repository, package):
    folder = os.path.join(repository, "Packages", package)
    text = subprocess.run(
        ["swift", "package", "--package-path", folder, "dump-package"],
        check=True, capture_output=True, text=True).stdout
    return folder, json.loads(text)


def dependency_names(target, products_by_name):
    """The target names a target depends on, with products resolved to their targets."""
    names = []
    for dependency in target.get("dependencies", []):
        if "byName" in dependency:
            name = dependency["byName"][0]
            names.extend(products_by_name.get(name, [name]) if name not in TARGETS else [name])
        elif "target" in dependency:
            names.append(dependency["target"][0])
        elif "product" in dependency:
            names.extend(products_by_name[dependency["product"][0]])
    return names


def swift_string(text):
    return json.dumps(text)


def render(targets, plugins):
    lines = [
        "// swift-tools-version:6.0",
        "// The dataconnect toolkit's SDK and test harness, as `make install` packages them (one package, so that a",
        "// project can depend on it by URL and version). Written by Tools/distribution/toolkit-package.py: do not edit.",
        "import PackageDescription",
        "",
        "let package = Package(",
        "    name: \"DataConnect\",",
        "    products: [",
    ]
    for product in PRODUCTS:
        lines.append(f"        .library(name: {swift_string(product)}, targets: [{swift_string(product)}]),")
    lines += ["    ],", "    targets: ["]
    for name, (target, dependencies) in targets.items():
        if target["type"] == "system":
            providers = []
            for provider in target.get("providers") or []:
                for kind, values in provider.items():
                    packages = ", ".join(swift_string(p) for p in values[0])
                    providers.append(f".{kind}([{packages}])")
            lines.append(
                f"        .systemLibrary(name: {swift_string(name)}, pkgConfig: {swift_string(target['pkgConfig'])}, "
                f"providers: [{', '.join(providers)}]),")
            continue
        arguments = [f"name: {swift_string(name)}"]
        if dependencies:
            arguments.append("dependencies: [" + ", ".join(swift_string(d) for d in dependencies) + "]")
        usages = [u["plugin"][0] for u in target.get("pluginUsages") or []]
        if usages:
            arguments.append("plugins: [" + ", ".join(swift_string(u) for u in usages) + "]")
        lines.append(f"        .target({', '.join(arguments)}),")
    for plugin in plugins:
        lines.append(f"        .plugin(name: {swift_string(plugin)}, capability: .buildTool()),")
    lines += ["    ],", "    swiftLanguageModes: [.v6]", ")", ""]
    return "\n".join(lines)


TARGETS = {}


def main():
    repository, out = sys.argv[1], sys.argv[2]
    products_by_name = {}
    folders = {}
    for package in PACKAGES:
        folder, manifest = dump(repository, package)
        for product in manifest["products"]:
            products_by_name[product["name"]] = product["targets"]
        for target in manifest["targets"]:
            if target["type"] in ("test", "executable"):
                continue
            if target["name"] in TARGETS:
                sys.exit(f"toolkit-package: target {target['name']} is in two packages")
            TARGETS[target["name"]] = target
            folders[target["name"]] = folder

    needed = {}
    plugins = []
    queue = [t for product in PRODUCTS for t in products_by_name[product]]
    while queue:
        name = queue.pop(0)
        if name in needed:
            continue
        target = TARGETS[name]
        dependencies = dependency_names(target, products_by_name)
        needed[name] = (target, dependencies)
        for usage in target.get("pluginUsages") or []:
            if usage["plugin"][0] not in plugins:
                plugins.append(usage["plugin"][0])
        queue.extend(dependencies)

    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    ordered = dict(sorted(needed.items()))
    for name, (target, _) in ordered.items():
        kind = "Plugins" if target["type"] == "plugin" else "Sources"
        source = os.path.join(folders[name], target.get("path") or os.path.join(kind, name))
        shutil.copytree(source, os.path.join(out, "Sources", name))
    for plugin in plugins:
        folder = folders[plugin]
        shutil.copytree(os.path.join(folder, "Plugins", plugin), os.path.join(out, "Plugins", plugin))
        for extra in PLUGIN_FOLDERS.get(plugin, []):
            shutil.copytree(os.path.join(folder, extra), os.path.join(out, extra))
    with open(os.path.join(out, "Package.swift"), "w") as handle:
        handle.write(render({n: v for n, v in ordered.items() if v[0]["type"] != "plugin"}, plugins))
    print(f"{out}: {len(ordered) - len(plugins)} targets, {len(plugins)} plugin(s), products {', '.join(PRODUCTS)}")


if __name__ == "__main__":
    main()
