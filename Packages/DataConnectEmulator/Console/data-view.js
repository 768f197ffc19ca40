// The Data view: a table's rows through the admin GraphQL API, a page at a time, sortable and filterable by
// column, with an editor that inserts, updates and deletes rows so the API's constraints and defaults apply.

import { executeGraphql } from "./api.js";
import {
  PAGE_SIZE,
  buildDelete,
  buildInsert,
  buildListQuery,
  buildUpdate,
  cellText,
  editorFields,
  errorMessages,
  findTable,
  isSortable,
  isWritable,
  pageOf,
  rowData,
  rowKey,
  valueToInput,
} from "./data-queries.js";
import { el } from "./dom.js";

/** The `<input type>` of each editor input kind that is an `<input>` (others are text). */
const INPUT_TYPES = { int: "number", float: "number", date: "date", datetime: "datetime-local" };

/** Each table's grid state (page, sort, filters), kept while the page lives so a re-render returns to it. */
const remembered = new Map();

function stateFor(type) {
  if (!remembered.has(type)) remembered.set(type, { offset: 0, sort: null, filters: {} });
  return remembered.get(type);
}

/** Mounts the Data view in `root`; `params.type` names the table shown (the first table when absent). */
export function mountData(root, ctx, params = {}) {
  const model = ctx.model;
  root.replaceChildren();
  const tables = model && Array.isArray(model.tables) ? model.tables : [];
  if (tables.length === 0) {
    root.appendChild(el("p", { class: "empty", text: "No service is loaded, or its schema has no tables." }));
    return { unmount() {} };
  }
  const table = findTable(model, params.type) || tables[0];
  if (params.type && table.type !== params.type) {
    ctx.toast(`There is no table ${params.type}; showing ${table.type}.`, "error");
  }
  const writable = isWritable(table);
  const state = stateFor(table.type);
  // The schema may have changed since the state was kept (the service reloads): drop what no longer applies.
  if (state.sort && !table.columns.some((c) => c.field === state.sort.field && isSortable(c))) state.sort = null;
  let generation = 0;
  let rows = [];
  let mounted = true;

  // ---- Header: table picker and actions
  const picker = el(
    "select",
    {
      id: "data-table-select",
      "data-testid": "data-table-select",
      onchange: () => ctx.navigate(`#/data/${encodeURIComponent(picker.value)}`),
    },
    tables.map((t) => el("option", { value: t.type, text: t.isView ? `${t.type} (view)` : t.type })),
  );
  picker.value = table.type;
  const insertButton = writable
    ? el("button", {
        type: "button",
        class: "primary",
        "data-testid": "data-insert",
        text: "Insert row",
        onclick: () => openEditor("insert", null),
      })
    : null;
  const refreshButton = el("button", {
    type: "button",
    "data-testid": "data-refresh",
    text: "Refresh",
    onclick: () => load(),
  });
  root.appendChild(
    el(
      "div",
      { class: "view-header" },
      el("h2", { text: "Data" }),
      el("label", { for: "data-table-select", class: "muted", text: "Table" }),
      picker,
      table.isView ? el("span", { class: "badge view", text: "view: read-only" }) : null,
      insertButton,
      refreshButton,
      el("a", { href: "#/schema", class: "muted", text: "schema" }),
    ),
  );

  // ---- Error box, editor slot, pager
  const errorBox = el("div", { class: "error-box", "data-testid": "data-error", role: "alert", hidden: true });
  const editorSlot = el("div", { class: "editor-slot" });
  const previous = () => go(-1);
  const prev = el("button", { type: "button", "data-testid": "data-prev", text: "← Previous", onclick: previous });
  const next = el("button", { type: "button", "data-testid": "data-next", text: "Next →", onclick: () => go(1) });
  const info = el("span", {
    class: "page-info",
    "data-testid": "data-page-info",
    "aria-live": "polite",
    text: "loading…",
  });
  const pager = el("div", { class: "pager" }, prev, info, next);
  root.appendChild(errorBox);
  root.appendChild(editorSlot);
  root.appendChild(pager);

  // ---- Grid: a sort header row, a filter row, the body
  const headerCells = new Map();
  const filterInputs = new Map();
  const headRow = el("tr");
  const filterRow = el("tr", { class: "filters" });
  if (writable) {
    const label = el("span", { class: "visually-hidden", text: "Actions" });
    headRow.appendChild(el("th", { class: "actions", scope: "col" }, label));
    filterRow.appendChild(el("th", { class: "actions" }));
  }
  for (const column of table.columns) {
    const sortable = isSortable(column);
    const title = column.sqlType ? `${column.type} (${column.sqlType})` : column.type;
    const th = el("th", { scope: "col", "data-field": column.field, title });
    if (sortable) {
      th.classList.add("sortable");
      const label = `sort by ${column.field}`;
      th.appendChild(el("button", { type: "button", class: "sort", text: column.field, "aria-label": label }));
      th.addEventListener("click", () => sortBy(column.field));
    } else {
      th.appendChild(el("span", { text: column.field }));
    }
    headerCells.set(column.field, th);
    headRow.appendChild(th);
    const input = el("input", {
      type: "search",
      class: "filter",
      "data-filter-field": column.field,
      placeholder: filterPlaceholder(column),
      "aria-label": `filter ${column.field}`,
      onkeydown: (event) => {
        if (event.key === "Enter") {
          event.preventDefault();
          applyFilters();
        }
      },
    });
    input.value = state.filters[column.field] || "";
    filterInputs.set(column.field, input);
    filterRow.appendChild(el("th", {}, input));
  }
  const tbody = el("tbody");
  const grid = el(
    "table",
    { class: "grid data", "data-testid": "data-grid", "data-table": table.type },
    el("thead", {}, headRow, filterRow),
    tbody,
  );
  root.appendChild(el("div", { class: "grid-wrap" }, grid));
  const filterHint =
    "Enter in a filter box applies the filters: text columns match by substring, lists by element, " +
    "other columns by equality.";
  root.appendChild(el("p", { class: "muted hint", text: filterHint }));

  function filterPlaceholder(column) {
    const type = String(column.type || "");
    if (type.startsWith("[")) return "has element";
    if (type.startsWith("String")) return "contains";
    if (type.startsWith("Boolean")) return "true or false";
    if (type.startsWith("Any")) return "equals (JSON)";
    return "equals";
  }

  function showErrors(messages) {
    errorBox.replaceChildren(...messages.map((message) => el("div", { class: "error-line", text: message })));
    errorBox.hidden = messages.length === 0;
  }

  function markSort() {
    for (const [field, th] of headerCells) {
      if (state.sort && state.sort.field === field) {
        th.setAttribute("data-sort", state.sort.direction);
        th.setAttribute("aria-sort", state.sort.direction === "asc" ? "ascending" : "descending");
      } else {
        th.removeAttribute("data-sort");
        th.removeAttribute("aria-sort");
      }
    }
  }

  function sortBy(field) {
    if (state.sort && state.sort.field === field) {
      state.sort = { field, direction: state.sort.direction === "asc" ? "desc" : "asc" };
    } else {
      state.sort = { field, direction: "asc" };
    }
    state.offset = 0;
    load();
  }

  function applyFilters() {
    const filters = {};
    for (const [field, input] of filterInputs) if (input.value.trim() !== "") filters[field] = input.value;
    state.filters = filters;
    state.offset = 0;
    load();
  }

  function go(direction) {
    state.offset = Math.max(0, state.offset + direction * PAGE_SIZE);
    load();
  }

  async function load() {
    const mine = ++generation;
    markSort();
    let request;
    try {
      request = buildListQuery(table, state, model);
    } catch (error) {
      showErrors([error.message]);
      return;
    }
    prev.disabled = true;
    next.disabled = true;
    info.textContent = "loading…";
    let answer;
    try {
      answer = await executeGraphql(model, request.query, request.variables, {
        readOnly: true,
        operationName: request.operationName,
      });
    } catch (error) {
      if (!mounted || mine !== generation) return;
      showErrors([`The emulator cannot be reached (${error.message}).`]);
      info.textContent = "";
      prev.disabled = state.offset === 0;
      return;
    }
    if (!mounted || mine !== generation) return;
    const messages = errorMessages(answer);
    const data = answer.body && answer.body.data;
    if (messages.length > 0 || !data || !Array.isArray(data.rows)) {
      showErrors(messages.length ? messages : ["The answer holds no rows."]);
      rows = [];
      renderRows();
      info.textContent = "";
      prev.disabled = state.offset === 0;
      return;
    }
    showErrors([]);
    const page = pageOf(data.rows, state.offset);
    if (page.rows.length === 0 && state.offset > 0) {
      // The page emptied (rows were deleted): go back to the last page that has rows.
      state.offset = Math.max(0, state.offset - PAGE_SIZE);
      load();
      return;
    }
    rows = page.rows;
    renderRows();
    info.textContent = page.info;
    prev.disabled = !page.hasPrevious;
    next.disabled = !page.hasNext;
  }

  function renderRows() {
    tbody.replaceChildren();
    rows.forEach((row, index) => {
      const tr = el("tr", { "data-row-index": index });
      if (writable) tr.appendChild(actionsCell(row, index));
      for (const column of table.columns) {
        const text = cellText(row[column.field]);
        const title = text.length > 40 ? text : null;
        const isNull = row[column.field] === null;
        tr.appendChild(el("td", { "data-field": column.field, class: isNull ? "null" : null, title, text }));
      }
      tbody.appendChild(tr);
    });
    if (rows.length === 0) {
      const colspan = table.columns.length + (writable ? 1 : 0);
      tbody.appendChild(el("tr", { class: "empty-row" }, el("td", { colspan, class: "muted", text: "No rows." })));
    }
  }

  function actionsCell(row, index) {
    const cell = el("td", { class: "actions" });
    const showButtons = () => {
      cell.replaceChildren(
        el("button", {
          type: "button",
          "data-action": "edit",
          "aria-label": `edit row ${index + 1}`,
          text: "Edit",
          onclick: () => openEditor("update", row),
        }),
        el("button", {
          type: "button",
          class: "danger",
          "data-action": "delete",
          "aria-label": `delete row ${index + 1}`,
          text: "Delete",
          onclick: () => askDelete(),
        }),
      );
    };
    const askDelete = () => {
      const confirm = el("button", {
        type: "button",
        class: "danger",
        "data-testid": "row-delete-confirm",
        text: "Delete",
        onclick: () => remove(row),
      });
      const keep = () => {
        showButtons();
        cell.querySelector('[data-action="delete"]').focus();
      };
      const cancel = el("button", { type: "button", "data-testid": "row-delete-cancel", text: "Keep", onclick: keep });
      cell.replaceChildren(el("span", { class: "confirm", text: "Delete this row?" }), confirm, cancel);
      confirm.focus();
    };
    showButtons();
    return cell;
  }

  async function remove(row) {
    let request;
    try {
      request = buildDelete(table, rowKey(table, row));
    } catch (error) {
      showErrors([error.message]);
      return;
    }
    const answer = await send(request);
    if (!answer) return;
    const messages = errorMessages(answer);
    if (messages.length) {
      showErrors(messages);
      renderRows();
      return;
    }
    ctx.toast(`Deleted a row of ${table.type}.`, "ok");
    closeEditor();
    load();
  }

  async function send(request) {
    try {
      return await executeGraphql(model, request.query, request.variables, { operationName: request.operationName });
    } catch (error) {
      showErrors([`The emulator cannot be reached (${error.message}).`]);
      return null;
    }
  }

  // ---- The row editor
  function closeEditor() {
    editorSlot.replaceChildren();
  }

  function openEditor(mode, row) {
    showErrors([]);
    const fields = editorFields(table, model, mode);
    const inputs = {};
    const controls = [];
    const form = el("form", { class: "row-editor card", "data-testid": "row-editor", "data-mode": mode });
    form.noValidate = true;
    const title = mode === "insert" ? `Insert a row into ${table.type}` : `Edit a row of ${table.type}`;
    const intro =
      mode === "insert"
        ? "Leave a field empty to let the server fill it (its default or generated value) or leave it null."
        : "Only the fields you change are sent. An emptied field is set to null.";
    form.appendChild(el("h3", { text: title }));
    form.appendChild(el("p", { class: "muted hint", text: intro }));
    const fieldsBox = el("div", { class: "editor-fields" });
    for (const field of fields) {
      const initial = mode === "update" ? valueToInput(field, row[field.field]) : valueToInput(field, null);
      const id = `edit-${field.field}`;
      const control = inputFor(field, id, initial);
      const entry = { value: initial, initial, touched: false };
      inputs[field.field] = entry;
      const update = () => {
        entry.value = field.input === "checkbox" ? control.checked : control.value;
        entry.touched = true;
      };
      control.addEventListener("input", update);
      control.addEventListener("change", update);
      controls.push(control);
      const hint = [field.type];
      if (field.key) hint.push("key");
      if (field.default) hint.push(`default ${field.default}`);
      else if (field.generated) hint.push("generated");
      fieldsBox.appendChild(
        el(
          "div",
          { class: "editor-field" },
          el(
            "label",
            { for: id },
            el("span", { class: "mono strong", text: field.field }),
            el("span", { class: "muted mono", text: `  ${hint.join(" · ")}` }),
          ),
          control,
        ),
      );
    }
    form.appendChild(fieldsBox);
    const saveText = mode === "insert" ? "Insert" : "Save";
    const save = el("button", { type: "submit", class: "primary", "data-testid": "row-save", text: saveText });
    const dismiss = () => {
      showErrors([]);
      closeEditor();
    };
    const cancel = el("button", { type: "button", "data-testid": "row-cancel", text: "Cancel", onclick: dismiss });
    form.appendChild(el("div", { class: "editor-actions" }, save, cancel));
    form.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        dismiss();
      }
    });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const { data, errors } = rowData(fields, inputs, mode);
      if (errors.length) {
        showErrors(errors);
        return;
      }
      let request;
      try {
        request = mode === "insert" ? buildInsert(table, data) : buildUpdate(table, rowKey(table, row), data);
      } catch (error) {
        showErrors([error.message]);
        return;
      }
      if (mode === "update" && Object.keys(data).length === 0) {
        ctx.toast("Nothing changed.", "info");
        closeEditor();
        return;
      }
      save.disabled = true;
      const answer = await send(request);
      save.disabled = false;
      if (!answer || !mounted) return;
      const messages = errorMessages(answer);
      if (messages.length) {
        showErrors(messages);
        return;
      }
      showErrors([]);
      ctx.toast(mode === "insert" ? `Inserted a row into ${table.type}.` : `Updated a row of ${table.type}.`, "ok");
      closeEditor();
      load();
    });
    editorSlot.replaceChildren(form);
    const first = controls.find((c) => !c.disabled);
    if (first) first.focus();
    form.scrollIntoView({ block: "nearest" });
  }

  function inputFor(field, id, initial) {
    const common = { id, "data-input-field": field.field, disabled: field.readOnly };
    let placeholder = field.nonNull ? "required" : "null";
    if (field.default) placeholder = `default: ${field.default}`;
    else if (field.generated) placeholder = "generated";
    switch (field.input) {
      case "checkbox": {
        const box = el("input", { ...common, type: "checkbox" });
        box.checked = initial === true;
        return box;
      }
      case "select": {
        let none = field.nonNull ? "—" : "— (null)";
        if (field.default) none = `— (default ${field.default})`;
        const options = field.options.map((o) => el("option", { value: o, text: o }));
        const select = el("select", common, el("option", { value: "", text: none }), options);
        select.value = initial;
        return select;
      }
      case "json": {
        const area = el("textarea", {
          ...common,
          rows: 2,
          class: "mono",
          placeholder: `${placeholder} (JSON)`,
          spellcheck: "false",
        });
        area.value = initial;
        return area;
      }
      default: {
        const type = INPUT_TYPES[field.input] || "text";
        const input = el("input", {
          ...common,
          type,
          placeholder: type === "text" || type === "number" ? placeholder : null,
          class: type === "text" ? "mono" : null,
        });
        if (field.input === "float") input.step = "any";
        if (field.input === "int") input.step = "1";
        if (field.input === "datetime") input.step = "1";
        if (field.input === "int64") input.inputMode = "numeric";
        input.value = initial;
        return input;
      }
    }
  }

  load();
  return {
    unmount() {
      mounted = false;
      generation += 1;
    },
  };
}
