// The GraphQL view: an editor for admin GraphQL (`executeGraphql`, no @auth checks) with line numbers,
// completion from the schema, syntax errors as you type, a variables pane, the result, and a history.
// The language logic lives in graphql-language.js, the history in history.js.

import { answerErrors, executeGraphql, formatTime } from "./api.js";
import { checkDocument, complete, offsetOf, operationAt } from "./graphql-language.js";
import { createHistory, entryTitle } from "./history.js";
import { parseVariablesText } from "./variables-form.js";
import { h } from "./dom.js";

/** A `line:column` the message starts with ("request:2:12: error: ..."), for errors without `locations`. */
function locationInMessage(message) {
  const match = /^[^\s:]*:(\d+):(\d+):/.exec(String(message || ""));
  return match ? { line: Number(match[1]), column: Number(match[2]) } : null;
}

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

const draftKey = "dataconnect-console.graphql-draft";
const sampleDocument = `# Admin GraphQL: no @auth checks. Ctrl+Space completes, Ctrl+Enter runs.
query {
  movies(limit: 5, orderBy: [{releaseYear: DESC}]) {
    id
    title
    releaseYear
  }
}
`;

function readDraft() {
  try {
    const draft = JSON.parse(storage().getItem(draftKey) || "null");
    if (draft && typeof draft.query === "string") return draft;
  } catch {
    // No draft.
  }
  return null;
}

function writeDraft(query, variables) {
  try {
    storage().setItem(draftKey, JSON.stringify({ query, variables }));
  } catch {
    // The draft is a convenience.
  }
}

/** Mounts the view into `root`. */
export function mountGraphQL(root, ctx) {
  let unmounted = false;
  const model = ctx.model;
  const history = createHistory(storage());
  let introspection = null;
  let syntaxErrors = [];
  let serverErrors = [];
  let checkTimer = null;
  root.classList.add("gql-view");

  // MARK: Editor

  const gutter = h("pre", { class: "gql-gutter", "aria-hidden": "true" });
  const editor = h("textarea", {
    class: "gql-editor",
    "data-testid": "graphql-editor",
    spellcheck: "false",
    autocapitalize: "off",
    autocomplete: "off",
    wrap: "off",
    "aria-label": "GraphQL document",
    "aria-autocomplete": "list",
    "aria-controls": "gql-completions",
    "aria-keyshortcuts": "Control+Space Control+Enter",
  });
  const completions = h("ul", {
    class: "gql-completions",
    id: "gql-completions",
    role: "listbox",
    "data-testid": "graphql-completions",
    "aria-label": "Suggestions",
    hidden: true,
  });
  const measure = h("span", { class: "gql-measure", "aria-hidden": "true" }, "MMMMMMMMMM");
  const editorBox = h("div", { class: "gql-editor-box" }, [gutter, editor, completions, measure]);

  const variablesEditor = h("textarea", {
    class: "gql-variables",
    "data-testid": "graphql-variables",
    spellcheck: "false",
    rows: 5,
    "aria-label": "Variables (JSON)",
    placeholder: "{}",
  });
  const variablesError = h("p", { class: "gql-error-text", role: "alert", hidden: true });

  const runButton = h("button", { type: "button", class: "gql-primary", "data-testid": "graphql-run", title: "Ctrl+Enter" }, "Run");
  const readOnly = h("input", { type: "checkbox", id: "gql-read-only", "data-testid": "graphql-read-only" });
  const statusLine = h("span", { class: "gql-status", "data-testid": "graphql-status" });
  const errorsList = h("ul", { class: "gql-errors", "data-testid": "graphql-errors", "aria-live": "polite" });
  const result = h("pre", { class: "gql-result", "data-testid": "graphql-result", tabindex: "0" });

  const historyList = h("ul", { class: "gql-history", "data-testid": "graphql-history", "aria-label": "History" });
  const clearHistory = h("button", { type: "button", class: "gql-small" }, "Clear");

  const draft = readDraft();
  const latest = history.list()[0];
  editor.value = draft ? draft.query : latest ? latest.query : sampleDocument;
  variablesEditor.value = draft ? draft.variables || "" : latest ? latest.variables || "" : "";

  root.append(
    h("div", { class: "gql-layout" }, [
      h("section", { class: "gql-main", "aria-label": "Editor" }, [
        h("div", { class: "gql-toolbar" }, [
          runButton,
          h("label", { for: "gql-read-only", class: "gql-inline" }, [readOnly, h("span", {}, "read-only (executeGraphqlRead)")]),
          h("span", { class: "gql-muted" }, "Admin: @auth is not checked. Ctrl+Space completes; Ctrl+Enter runs."),
        ]),
        editorBox,
        h("label", { class: "gql-label", for: "gql-variables" }, "Variables (JSON)"),
        variablesEditor,
        variablesError,
        h("div", { class: "gql-section-head" }, [h("h3", {}, "Result"), statusLine]),
        errorsList,
        result,
      ]),
      h("aside", { class: "gql-side", "aria-label": "History" }, [
        h("div", { class: "gql-section-head" }, [h("h3", {}, "History"), clearHistory]),
        historyList,
      ]),
    ]),
  );
  variablesEditor.id = "gql-variables";

  // MARK: Gutter and errors

  function renderGutter() {
    const lines = editor.value.split(/\r\n|\r|\n/).length;
    const errorLines = new Set(syntaxErrors.map((error) => error.line));
    gutter.replaceChildren();
    for (let line = 1; line <= lines; line++) {
      const number = h("span", { class: errorLines.has(line) ? "gql-line gql-line-error" : "gql-line" }, String(line));
      gutter.append(number, "\n");
    }
    gutter.scrollTop = editor.scrollTop;
  }

  function renderErrors() {
    errorsList.replaceChildren();
    const showing = syntaxErrors.length ? syntaxErrors.map((e) => ({ ...e, source: "syntax" })) : serverErrors;
    for (const error of showing) {
      const item = h("li", { "data-source": error.source });
      if (error.line) {
        const jump = h("button", { type: "button", class: "gql-location", title: "Go to the error" }, `${error.line}:${error.column}`);
        jump.addEventListener("click", () => {
          const offset = offsetOf(editor.value, error.line, error.column);
          editor.focus();
          editor.setSelectionRange(offset, offset);
        });
        item.append(jump, " ");
      }
      if (error.code) item.append(h("span", { class: "gql-code" }, error.code), " ");
      item.append(h("span", {}, error.message));
      if (error.path) item.append(" ", h("span", { class: "gql-muted" }, `at ${error.path}`));
      errorsList.append(item);
    }
  }

  function check() {
    checkTimer = null;
    if (unmounted) return;
    syntaxErrors = checkDocument(editor.value).errors;
    if (syntaxErrors.length > 0) editor.setAttribute("aria-invalid", "true");
    else editor.removeAttribute("aria-invalid");
    renderErrors();
    renderGutter();
  }

  function scheduleCheck() {
    if (checkTimer !== null) clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 250);
  }

  // MARK: Completion

  let completion = { open: false, items: [], index: 0, from: 0, to: 0, navigated: false };
  let charWidth = 8;
  let lineHeight = 18;

  function measureFont() {
    const rect = measure.getBoundingClientRect();
    if (rect.width > 0) charWidth = rect.width / 10;
    const style = getComputedStyle(editor);
    const parsed = parseFloat(style.lineHeight);
    lineHeight = Number.isFinite(parsed) ? parsed : parseFloat(style.fontSize) * 1.4 || 18;
  }

  function closeCompletions() {
    completion.open = false;
    completions.hidden = true;
    completions.replaceChildren();
    editor.removeAttribute("aria-activedescendant");
    editor.setAttribute("aria-expanded", "false");
  }

  function renderCompletions() {
    completions.replaceChildren();
    completion.items.forEach((item, index) => {
      const li = h(
        "li",
        {
          id: `gql-completion-${index}`,
          role: "option",
          "aria-selected": index === completion.index ? "true" : "false",
          "data-label": item.label,
          class: `gql-completion gql-completion-${item.kind}`,
          title: item.description || null,
        },
        [h("span", { class: "gql-completion-label" }, item.label), h("span", { class: "gql-completion-detail" }, item.detail || "")],
      );
      li.addEventListener("mousedown", (event) => {
        event.preventDefault();
        completion.index = index;
        insertCompletion();
      });
      completions.append(li);
    });
    const selected = completions.children[completion.index];
    if (selected) {
      editor.setAttribute("aria-activedescendant", selected.id);
      selected.scrollIntoView({ block: "nearest" });
    }
    // Place the list under the cursor's line.
    const before = editor.value.slice(0, completion.from);
    const lines = before.split(/\r\n|\r|\n/);
    const line = lines.length - 1;
    const column = lines[lines.length - 1].length;
    const style = getComputedStyle(editor);
    const top = editor.offsetTop + parseFloat(style.paddingTop || "0") + (line + 1) * lineHeight - editor.scrollTop + 2;
    const left = editor.offsetLeft + parseFloat(style.paddingLeft || "0") + column * charWidth - editor.scrollLeft;
    completions.style.top = `${Math.max(0, top)}px`;
    completions.style.left = `${Math.max(0, Math.min(left, editorBox.clientWidth - 260))}px`;
  }

  function openCompletions(explicit) {
    if (!introspection) {
      if (explicit) {
        closeCompletions();
        statusLine.textContent = "The schema is loading; completion is not ready yet.";
      }
      return;
    }
    const cursor = editor.selectionStart;
    if (editor.selectionEnd !== cursor) return;
    const found = complete(editor.value, cursor, introspection);
    // While typing, a suggestion equal to the typed word alone is not worth a popup.
    const typed = editor.value.slice(found.from, cursor);
    const useful = found.items.filter((item) => explicit || item.insertText !== typed);
    if (useful.length === 0) {
      closeCompletions();
      return;
    }
    completion = { open: true, items: found.items, index: 0, from: found.from, to: found.to, navigated: false };
    completions.hidden = false;
    editor.setAttribute("aria-expanded", "true");
    renderCompletions();
  }

  function insertCompletion() {
    const item = completion.items[completion.index];
    if (!item) return;
    editor.focus();
    editor.setRangeText(item.insertText, completion.from, completion.to, "end");
    closeCompletions();
    edited();
  }

  // MARK: Editing

  function edited() {
    writeDraft(editor.value, variablesEditor.value);
    renderGutter();
    scheduleCheck();
  }

  editor.addEventListener("input", (event) => {
    edited();
    const typed = event.data || "";
    if (/^[_A-Za-z0-9$@]$/.test(typed) || (completion.open && event.inputType === "deleteContentBackward")) {
      openCompletions(false);
    } else {
      closeCompletions();
    }
  });
  editor.addEventListener("scroll", () => {
    gutter.scrollTop = editor.scrollTop;
    if (completion.open) renderCompletions();
  });
  editor.addEventListener("blur", () => closeCompletions());
  editor.addEventListener("click", () => closeCompletions());

  editor.addEventListener("keydown", (event) => {
    if (completion.open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const count = completion.items.length;
        completion.index = (completion.index + (event.key === "ArrowDown" ? 1 : count - 1)) % count;
        completion.navigated = true;
        renderCompletions();
        return;
      }
      if ((event.key === "Enter" && !event.ctrlKey && !event.metaKey) || event.key === "Tab") {
        const typed = editor.value.slice(completion.from, editor.selectionStart);
        const complete = completion.to === editor.selectionStart && completion.items.some((i) => i.insertText === typed);
        if (event.key === "Enter" && !completion.navigated && complete) {
          // The word is complete as typed: Enter starts a new line.
          closeCompletions();
          return;
        }
        event.preventDefault();
        insertCompletion();
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        closeCompletions();
        return;
      }
      if (event.key === "ArrowLeft" || event.key === "ArrowRight" || event.key === "Home" || event.key === "End") {
        closeCompletions();
      }
    }
    if (event.key === " " && event.ctrlKey) {
      event.preventDefault();
      openCompletions(true);
      return;
    }
  });

  variablesEditor.addEventListener("input", () => {
    writeDraft(editor.value, variablesEditor.value);
    const parsed = parseVariablesText(variablesEditor.value);
    variablesError.hidden = parsed.ok;
    variablesError.textContent = parsed.ok ? "" : `Variables JSON: ${parsed.error}`;
  });

  // MARK: Running

  let runSequence = 0;
  async function run() {
    if (!model) {
      statusLine.textContent = "No service is loaded.";
      return;
    }
    closeCompletions();
    const parsed = parseVariablesText(variablesEditor.value);
    if (!parsed.ok) {
      variablesError.hidden = false;
      variablesError.textContent = `Variables JSON: ${parsed.error}`;
      variablesEditor.focus();
      return;
    }
    const query = editor.value;
    const operation = operationAt(query, editor.selectionStart);
    const checked = checkDocument(query);
    const options = { readOnly: readOnly.checked };
    if (operation && operation.name && checked.operations.length > 1) options.operationName = operation.name;
    history.add(query, variablesEditor.value);
    renderHistory();
    const sequence = ++runSequence;
    runButton.disabled = true;
    statusLine.textContent = "running…";
    try {
      const answer = await executeGraphql(model, query, parsed.value, options);
      if (unmounted || sequence !== runSequence) return;
      const body = answer.body;
      const errors = answerErrors(body);
      serverErrors = errors.map((error) => {
        const location =
          Array.isArray(error.locations) && error.locations[0] ? error.locations[0] : locationInMessage(error.message);
        return {
          source: "server",
          message: String(error.message),
          line: location ? location.line : null,
          column: location ? location.column : null,
          code: error.extensions && error.extensions.code ? error.extensions.code : null,
          path: Array.isArray(error.path) && error.path.length ? error.path.join(".") : null,
        };
      });
      const code = errors.length && errors[0].extensions && errors[0].extensions.code;
      statusLine.textContent = `${answer.status} ${answer.status === 200 && !errors.length ? "OK" : code || ""} · ${formatTime(answer.ms)}`.replace(/\s+·/, " ·");
      statusLine.setAttribute("data-status", String(answer.status));
      if (body && typeof body === "object" && "data" in body) result.textContent = JSON.stringify(body.data, null, 2);
      else if (body) result.textContent = JSON.stringify(body, null, 2);
      else result.textContent = answer.text || "";
      syntaxErrors = checked.errors;
      renderErrors();
    } catch (error) {
      if (unmounted || sequence !== runSequence) return;
      statusLine.textContent = `The emulator did not answer: ${error.message}`;
    } finally {
      if (!unmounted && sequence === runSequence) runButton.disabled = false;
    }
  }

  runButton.addEventListener("click", run);
  function onKey(event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  }
  root.addEventListener("keydown", onKey);

  // MARK: History

  function renderHistory() {
    historyList.replaceChildren();
    const entries = history.list();
    if (entries.length === 0) {
      historyList.append(h("li", { class: "gql-muted gql-history-empty" }, "Documents you run appear here."));
      return;
    }
    for (const entry of entries) {
      const button = h("button", { type: "button", class: "gql-history-entry", title: entry.query }, [
        h("span", { class: "gql-history-title" }, entryTitle(entry) || "(empty)"),
        h("span", { class: "gql-muted" }, new Date(entry.time).toLocaleString()),
      ]);
      button.addEventListener("click", () => {
        editor.value = entry.query;
        variablesEditor.value = entry.variables || "";
        serverErrors = [];
        edited();
        check();
        editor.focus();
      });
      historyList.append(h("li", { "data-history-time": entry.time }, [button]));
    }
  }
  clearHistory.addEventListener("click", () => {
    history.clear();
    renderHistory();
  });

  renderHistory();
  renderGutter();
  check();
  requestAnimationFrame(() => {
    if (!unmounted) measureFont();
  });
  Promise.resolve()
    .then(() => ctx.introspection())
    .then(
      (value) => {
        if (!unmounted) introspection = value;
      },
      (error) => {
        if (!unmounted) statusLine.textContent = `Completion is unavailable: ${error.message}`;
      },
    );

  return {
    unmount() {
      unmounted = true;
      if (checkTimer !== null) clearTimeout(checkTimer);
      root.removeEventListener("keydown", onKey);
    },
  };
}
