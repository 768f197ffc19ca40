// The Schema view: the relations diagram, then one card per table with its columns, uniques, indexes and the
// connector operations that touch it.

import { layoutDiagram, renderDiagram } from "./diagram.js";
import { el } from "./dom.js";

/** The text of an `@auth` level for display. */
export function authLabel(level) {
  return level ? `@auth(level: ${level})` : "no @auth";
}

/** The CSS class of an `@auth` level badge. */
export function authClass(level) {
  if (!level) return "badge auth-none";
  if (level === "PUBLIC") return "badge auth-public";
  if (level === "NO_ACCESS") return "badge auth-none";
  return "badge auth-user";
}

const COLUMN_HEADINGS = ["Field", "GraphQL type", "SQL type", "Key", "Unique", "Default", "References"];

/** `n word` or `n words`. */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The link to an operation in the Operations view. */
function operationLink(connector, name) {
  return el("a", {
    href: `#/operations/${encodeURIComponent(connector)}/${encodeURIComponent(name)}`,
    class: "mono",
    text: `${connector}/${name}`,
  });
}

/** A link that brings the card of `type` into view. */
function tableLink(type, text, onReference) {
  return el("a", {
    href: "#/schema",
    class: "mono",
    text,
    onclick: (event) => {
      event.preventDefault();
      onReference(type);
    },
  });
}

/**
 * The table's fields: each column, and each relation right after the foreign-key columns that hold it (a relation
 * is a field of the GraphQL type, stored in those columns).
 */
function columnsTable(table, onReference) {
  const head = el(
    "thead",
    {},
    el("tr", {}, COLUMN_HEADINGS.map((t) => el("th", { scope: "col", text: t }))),
  );
  const body = el("tbody");
  const relations = table.relations || [];
  const shown = new Set();
  const relationRow = (relation) => {
    shown.add(relation.field);
    const columns = relation.columns || [];
    const byField = new Map(table.columns.map((c) => [c.field, c]));
    const isKey = columns.length > 0 && columns.every((f) => byField.get(f) && byField.get(f).key);
    const onDelete = relation.onDelete ? `, on delete ${relation.onDelete}` : "";
    return el(
      "tr",
      { "data-column": relation.field, class: "relation" },
      el("td", { class: "mono" }, relation.field),
      el("td", { class: "mono", text: `${relation.type}${relation.nullable ? "" : "!"}` }),
      el("td", { class: "mono muted", text: `via ${columns.join(", ")}` }),
      el("td", { text: isKey ? "key" : "" }),
      el("td", { text: relation.oneToOne ? "one-to-one" : "" }),
      el("td", { class: "muted", text: "" }),
      el("td", {}, tableLink(relation.type, relation.type, onReference), el("span", { class: "muted", text: onDelete })),
    );
  };
  for (const column of table.columns) {
    const ref = column.references;
    body.appendChild(
      el(
        "tr",
        { "data-column": column.field },
        el("td", { class: "mono" }, el("span", { text: column.field, title: column.description || null })),
        el("td", { class: "mono", text: column.type }),
        el("td", { class: "mono muted", text: column.sqlType || "" }),
        el("td", { text: column.key ? "key" : "" }),
        el("td", { text: column.unique ? "unique" : "" }),
        el("td", { class: "mono", text: column.default ?? (column.generated ? "generated" : "") }),
        el("td", {}, ref ? tableLink(ref.type, `${ref.type}${ref.field ? ` (${ref.field})` : ""}`, onReference) : ""),
      ),
    );
    for (const relation of relations) {
      const columns = relation.columns || [];
      if (!shown.has(relation.field) && columns.length > 0 && columns.at(-1) === column.field) {
        body.appendChild(relationRow(relation));
      }
    }
  }
  for (const relation of relations) if (!shown.has(relation.field)) body.appendChild(relationRow(relation));
  return el("table", { class: "grid compact" }, head, body);
}

function tableCard(table, onReference) {
  const uniques = (table.uniques || []).filter((u) => u.length > 0);
  const indexes = table.indexes || [];
  const operations = table.operations || [];
  const summary = el(
    "summary",
    {},
    el("span", { class: "card-title", text: table.type }),
    table.isView ? el("span", { class: "badge view", text: "view" }) : null,
    el("span", { class: "muted mono", text: ` ${table.table}` }),
  );
  const card = el(
    "details",
    { class: "card", open: true, "data-testid": "schema-table", "data-table": table.type, id: `table-${table.type}` },
    summary,
    table.description ? el("p", { class: "description", text: table.description }) : null,
    el(
      "p",
      { class: "card-links" },
      el("a", { href: `#/data/${encodeURIComponent(table.type)}`, "data-action": "view-data", text: "view data →" }),
      table.key && table.key.length ? el("span", { class: "muted", text: `  key: ${table.key.join(", ")}` }) : null,
    ),
    columnsTable(table, onReference),
  );
  if (uniques.length) {
    card.appendChild(el("h4", { text: "Unique" }));
    const items = uniques.map((u) => el("li", { class: "mono", text: `(${u.join(", ")})` }));
    card.appendChild(el("ul", { class: "plain" }, items));
  }
  if (indexes.length) {
    card.appendChild(el("h4", { text: "Indexes" }));
    card.appendChild(
      el(
        "ul",
        { class: "plain" },
        indexes.map((i) =>
          el(
            "li",
            {},
            el("span", { class: "mono", text: `${i.name} (${(i.columns || []).join(", ")})` }),
            el("span", { class: "muted", text: ` ${i.type || ""}` }),
          ),
        ),
      ),
    );
  }
  card.appendChild(el("h4", { text: "Operations" }));
  if (operations.length === 0) {
    card.appendChild(el("p", { class: "muted", text: "No connector operation touches this table." }));
  } else {
    card.appendChild(
      el(
        "ul",
        { class: "plain operations" },
        operations.map((op) =>
          el(
            "li",
            { "data-operation": `${op.connector}/${op.name}` },
            operationLink(op.connector, op.name),
            el("span", { class: `badge kind-${op.kind}`, text: op.kind }),
            el("span", { class: authClass(op.auth), text: authLabel(op.auth) }),
          ),
        ),
      ),
    );
  }
  return card;
}

/** Mounts the Schema view in `root`. */
export function mountSchema(root, ctx) {
  const model = ctx.model;
  root.replaceChildren();
  if (!model || !Array.isArray(model.tables) || model.tables.length === 0) {
    root.appendChild(el("p", { class: "empty", text: "No service is loaded, or its schema has no tables." }));
    return { unmount() {} };
  }
  let highlightTimer = null;
  const select = (type) => {
    const card = root.querySelector(`[data-testid="schema-table"][data-table="${CSS.escape(type)}"]`);
    if (!card) return;
    card.open = true;
    card.scrollIntoView({ block: "start", behavior: "smooth" });
    card.classList.add("highlight");
    clearTimeout(highlightTimer);
    highlightTimer = setTimeout(() => card.classList.remove("highlight"), 1500);
    const summary = card.querySelector("summary");
    if (summary) summary.focus({ preventScroll: true });
  };

  const views = model.tables.filter((t) => t.isView).length;
  root.appendChild(
    el(
      "div",
      { class: "view-header" },
      el("h2", { text: `Schema of ${model.serviceId}` }),
      el("span", {
        class: "muted",
        text: [
          plural(model.tables.length - views, "table"),
          views ? plural(views, "view") : null,
          plural((model.enums || []).length, "enum"),
        ]
          .filter(Boolean)
          .join(", "),
      }),
    ),
  );
  const layout = layoutDiagram(model);
  root.appendChild(el("div", { class: "diagram-wrap" }, renderDiagram(document, layout, { onSelect: select })));
  const hint = "Click a table (or focus it and press Enter) to open its card.";
  root.appendChild(el("p", { class: "muted hint", text: hint }));

  if (model.enums && model.enums.length) {
    root.appendChild(
      el(
        "section",
        { class: "card enums" },
        el("h3", { text: "Enums" }),
        el(
          "ul",
          { class: "plain" },
          model.enums.map((e) =>
            el(
              "li",
              { "data-enum": e.name },
              el("span", { class: "mono strong", text: e.name }),
              el("span", { class: "mono muted", text: `  ${e.values.join(" | ")}` }),
            ),
          ),
        ),
      ),
    );
  }
  const cards = el("div", { class: "cards" });
  for (const table of [...model.tables].sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0))) {
    cards.appendChild(tableCard(table, select));
  }
  root.appendChild(cards);
  return {
    unmount() {
      clearTimeout(highlightTimer);
    },
  };
}
