// The admin GraphQL the Data view sends, built from the console model: list a page of rows, insert, update and
// delete one row. Values always travel as GraphQL variables, never inside the document text.
// Pure of the DOM: node imports it in the unit tests.

/** Rows shown on one page of the grid. */
export const PAGE_SIZE = 20;

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;
const NUMBER_TYPES = new Set(["Int", "Float", "Int64"]);
const JSON_TYPES = new Set(["Any", "Vector"]);

/** Checks that `name` is a GraphQL name before it is written into a document. */
function graphqlName(name) {
  if (typeof name !== "string" || !NAME.test(name)) throw new Error(`not a GraphQL name: ${JSON.stringify(name)}`);
  return name;
}

/**
 * Reads a GraphQL type reference such as `[String!]!`.
 *
 * @returns {{base: string, list: boolean, nonNull: boolean}}
 */
export function parseTypeRef(text) {
  let rest = String(text || "").trim();
  const nonNull = rest.endsWith("!");
  if (nonNull) rest = rest.slice(0, -1);
  const list = rest.startsWith("[");
  const base = rest.replace(/[[\]!\s]/g, "");
  return { base, list, nonNull };
}

/** A column's type facts, preferring the model's own `list`/`nullable` flags when given. */
export function columnType(column) {
  const ref = parseTypeRef(column.type);
  return {
    base: ref.base,
    list: typeof column.list === "boolean" ? column.list : ref.list,
    nonNull: typeof column.nullable === "boolean" ? !column.nullable : ref.nonNull,
  };
}

/** The table of the model named by its GraphQL type, or null. */
export function findTable(model, type) {
  return (model && Array.isArray(model.tables) ? model.tables : []).find((t) => t.type === type) || null;
}

/** The enum of the model with that name, or null. */
export function findEnum(model, name) {
  return (model && Array.isArray(model.enums) ? model.enums : []).find((e) => e.name === name) || null;
}

/** Whether the grid can sort by the column (lists and JSON values have no order field). */
export function isSortable(column) {
  const type = columnType(column);
  return !type.list && !JSON_TYPES.has(type.base);
}

/** Whether rows of the table can be inserted, edited and deleted (views and keyless tables cannot). */
export function isWritable(table) {
  return (
    !table.isView &&
    Array.isArray(table.key) &&
    table.key.length > 0 &&
    Boolean(table.api && table.api.insert && table.api.update && table.api.delete)
  );
}

/** The page's ordering: the chosen column, else the key fields ascending (so pages do not shift). */
export function orderByFor(table, sort) {
  if (sort && sort.field) {
    return [{ [graphqlName(sort.field)]: sort.direction === "desc" ? "DESC" : "ASC" }];
  }
  if (!table.isView && Array.isArray(table.key) && table.key.length > 0) {
    return table.key.map((field) => ({ [graphqlName(field)]: "ASC" }));
  }
  return null;
}

/**
 * Converts the text typed in a filter box into a filter on the column, or null when the text is blank.
 *
 * Strings match by `contains`, list columns by `includes` (one element), everything else by `eq`, with the text
 * read as the column's type. Throws an Error naming the field when the text cannot be read as that type.
 */
export function columnFilter(column, text, model) {
  const raw = String(text ?? "").trim();
  if (raw === "") return null;
  const type = columnType(column);
  if (type.list) return { includes: scalarFromText(column.field, type.base, raw, model) };
  if (type.base === "String") return { contains: raw };
  return { eq: scalarFromText(column.field, type.base, raw, model) };
}

/** Reads filter text as a value of the scalar or enum type `base`. */
function scalarFromText(field, base, raw, model) {
  switch (base) {
    case "Int": {
      if (!/^[-+]?\d+$/.test(raw)) throw new Error(`${field}: "${raw}" is not an Int`);
      return Number.parseInt(raw, 10);
    }
    case "Float": {
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new Error(`${field}: "${raw}" is not a Float`);
      return value;
    }
    case "Int64":
      if (!/^[-+]?\d+$/.test(raw)) throw new Error(`${field}: "${raw}" is not an Int64`);
      return raw;
    case "Boolean": {
      const lower = raw.toLowerCase();
      if (lower !== "true" && lower !== "false") throw new Error(`${field}: type true or false`);
      return lower === "true";
    }
    case "Any":
    case "Vector":
      try {
        return JSON.parse(raw);
      } catch {
        throw new Error(`${field}: "${raw}" is not JSON`);
      }
    default: {
      const enumType = findEnum(model, base);
      return enumType ? raw.toUpperCase() : raw;
    }
  }
}

/**
 * The `where` argument for the filter texts (`{field: text}`), or null when no filter is set.
 * Throws an Error when a text cannot be read as its column's type.
 */
export function whereFor(table, filters, model) {
  const where = {};
  for (const column of table.columns) {
    if (!filters || !(column.field in filters)) continue;
    const filter = columnFilter(column, filters[column.field], model);
    if (filter) where[graphqlName(column.field)] = filter;
  }
  return Object.keys(where).length > 0 ? where : null;
}

/**
 * The query reading one page: every column, `limit` one more than a page so the answer says whether a next page
 * exists. Returns `{query, variables, operationName}`; the rows come back under `data.rows`.
 *
 * @param {object} table a table of the console model
 * @param {{offset?: number, sort?: {field, direction}, filters?: object}} state the grid's state
 */
export function buildListQuery(table, state = {}, model = null) {
  const api = table.api || {};
  const fields = table.columns.map((c) => graphqlName(c.field));
  const filterType = graphqlName(api.filter || `${table.type}_Filter`);
  const orderType = graphqlName(api.orderBy || `${table.type}_Order`);
  const query =
    `query ConsoleListRows($where: ${filterType}, $orderBy: [${orderType}!], $offset: Int, $limit: Int) {\n` +
    `  rows: ${graphqlName(api.list)}(where: $where, orderBy: $orderBy, offset: $offset, limit: $limit) {\n` +
    fields.map((f) => `    ${f}\n`).join("") +
    `  }\n}\n`;
  const variables = { offset: Math.max(0, state.offset || 0), limit: PAGE_SIZE + 1 };
  const where = whereFor(table, state.filters || {}, model);
  if (where) variables.where = where;
  const orderBy = orderByFor(table, state.sort);
  if (orderBy) variables.orderBy = orderBy;
  return { query, variables, operationName: "ConsoleListRows" };
}

/**
 * Cuts the rows of a list answer into the page shown and what the pager needs.
 *
 * @returns {{rows: object[], hasPrevious: boolean, hasNext: boolean, info: string}}
 */
export function pageOf(rows, offset = 0) {
  const all = Array.isArray(rows) ? rows : [];
  const page = all.slice(0, PAGE_SIZE);
  let info = `rows ${offset + 1}–${offset + page.length}`;
  if (page.length === 0) info = offset > 0 ? `no rows after ${offset}` : "no rows";
  return { rows: page, hasPrevious: offset > 0, hasNext: all.length > PAGE_SIZE, info };
}

/** The key of a row, as the table's `_Key` input wants it. Throws when the row lacks a key field. */
export function rowKey(table, row) {
  const key = {};
  for (const field of table.key || []) {
    if (!row || row[field] === undefined || row[field] === null) throw new Error(`the row has no ${field}`);
    key[field] = row[field];
  }
  return key;
}

/** `mutation { <type>_insert(data: $data) }`: returns `{query, variables, operationName}`. */
export function buildInsert(table, data) {
  const api = table.api;
  return {
    query:
      `mutation ConsoleInsertRow($data: ${graphqlName(api.dataInput)}!) {\n` +
      `  ${graphqlName(api.insert)}(data: $data)\n}\n`,
    variables: { data },
    operationName: "ConsoleInsertRow",
  };
}

/** `mutation { <type>_update(key: $key, data: $data) }`: returns `{query, variables, operationName}`. */
export function buildUpdate(table, key, data) {
  const api = table.api;
  return {
    query:
      `mutation ConsoleUpdateRow($key: ${graphqlName(api.keyInput)}!, $data: ${graphqlName(api.dataInput)}!) {\n` +
      `  ${graphqlName(api.update)}(key: $key, data: $data)\n}\n`,
    variables: { key, data },
    operationName: "ConsoleUpdateRow",
  };
}

/** `mutation { <type>_delete(key: $key) }`: returns `{query, variables, operationName}`. */
export function buildDelete(table, key) {
  const api = table.api;
  return {
    query:
      `mutation ConsoleDeleteRow($key: ${graphqlName(api.keyInput)}!) {\n` +
      `  ${graphqlName(api.delete)}(key: $key)\n}\n`,
    variables: { key },
    operationName: "ConsoleDeleteRow",
  };
}

/** The text a grid cell shows for a value: empty for null, JSON for objects and lists. */
export function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// ---- The row editor -------------------------------------------------------------------------------------------

/**
 * How the editor asks for each column: one entry per column, in model order.
 *
 * `input` is `"int" | "float" | "int64" | "checkbox" | "date" | "datetime" | "select" | "json" | "text"`;
 * `options` lists an enum's values; `readOnly` is set, when editing, for key fields; `optional` says that leaving
 * the input empty on insert lets the server fill it (a default or generated value) or leaves it null.
 */
export function editorFields(table, model, mode = "insert") {
  const keys = new Set(table.key || []);
  return table.columns.map((column) => {
    const type = columnType(column);
    const enumType = findEnum(model, column.enum || type.base);
    let input = "text";
    if (type.list || JSON_TYPES.has(type.base)) input = "json";
    else if (enumType) input = "select";
    else if (type.base === "Int") input = "int";
    else if (type.base === "Float") input = "float";
    else if (type.base === "Int64") input = "int64";
    else if (type.base === "Boolean") input = "checkbox";
    else if (type.base === "Date") input = "date";
    else if (type.base === "Timestamp") input = "datetime";
    const hasDefault = column.default !== null && column.default !== undefined && column.default !== "";
    return {
      field: column.field,
      type: column.type,
      input,
      options: enumType ? enumType.values.slice() : null,
      key: keys.has(column.field),
      nonNull: type.nonNull,
      default: hasDefault ? String(column.default) : null,
      generated: Boolean(column.generated),
      readOnly: mode === "update" && keys.has(column.field),
      optional: Boolean(column.generated) || hasDefault || !type.nonNull,
    };
  });
}

function pad(n, width = 2) {
  return String(n).padStart(width, "0");
}

/** RFC 3339 UTC (`2024-05-01T12:00:23Z`) as a `datetime-local` value in the browser's time zone. */
export function timestampToLocalInput(text) {
  if (typeof text !== "string" || text === "") return "";
  const date = new Date(text);
  if (Number.isNaN(date.getTime())) return "";
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** A `datetime-local` value (the browser's time zone) as RFC 3339 UTC, or null when it is not a time. */
export function localInputToTimestamp(text) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(String(text || ""));
  if (!match) return null;
  const [, y, mo, d, h, mi, s = "0", ms = "0"] = match;
  const date = new Date(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, "0"));
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString().replace(/\.000Z$/, "Z");
}

/** The editor's initial input value for a stored value: a string, or a boolean for checkboxes. */
export function valueToInput(field, value) {
  if (field.input === "checkbox") return value === true;
  if (value === null || value === undefined) return "";
  switch (field.input) {
    case "json":
      return JSON.stringify(value);
    case "datetime":
      return timestampToLocalInput(value);
    case "date":
      return String(value).slice(0, 10);
    default:
      return String(value);
  }
}

/**
 * Reads an input's value as the column's value. Returns `{value}` or `{error}`; an empty input reads as null.
 */
export function inputToValue(field, raw) {
  if (field.input === "checkbox") return { value: raw === true };
  const text = String(raw ?? "");
  if (text.trim() === "") {
    // An emptied required String is the empty string; the API answers for every other required field.
    if (field.input === "text" && field.nonNull && field.type.replace(/[!\s]/g, "") === "String") return { value: "" };
    return { value: null };
  }
  switch (field.input) {
    case "int":
      if (!/^\s*[-+]?\d+\s*$/.test(text)) return { error: `${field.field}: "${text}" is not an Int` };
      return { value: Number.parseInt(text, 10) };
    case "float": {
      const value = Number(text);
      if (!Number.isFinite(value)) return { error: `${field.field}: "${text}" is not a Float` };
      return { value };
    }
    case "int64":
      if (!/^\s*[-+]?\d+\s*$/.test(text)) return { error: `${field.field}: "${text}" is not an Int64` };
      return { value: text.trim() };
    case "json":
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { error: `${field.field}: not JSON (${error.message})` };
      }
    case "datetime": {
      const value = localInputToTimestamp(text);
      return value === null ? { error: `${field.field}: "${text}" is not a date and time` } : { value };
    }
    default:
      return { value: text };
  }
}

/**
 * The `data` argument from the editor's inputs.
 *
 * On insert, empty inputs (and checkboxes never touched, unless the column is a required one without default)
 * are left out so the server applies defaults and generated values. On update, only inputs whose value differs
 * from the one the editor started with are sent. Read-only fields are never sent.
 *
 * @param {ReturnType<typeof editorFields>} fields
 * @param {{[field: string]: {value: string|boolean, initial: string|boolean, touched?: boolean}}} inputs
 * @param {"insert"|"update"} mode
 * @returns {{data: object, errors: string[]}}
 */
export function rowData(fields, inputs, mode) {
  const data = {};
  const errors = [];
  for (const field of fields) {
    if (field.readOnly) continue;
    const input = inputs[field.field];
    if (!input) continue;
    if (mode === "update") {
      if (input.value === input.initial) continue;
    } else if (field.input === "checkbox") {
      if (!input.touched && field.optional) continue;
    } else if (String(input.value ?? "").trim() === "") {
      continue;
    }
    const read = inputToValue(field, input.value);
    if (read.error) errors.push(read.error);
    else data[graphqlName(field.field)] = read.value;
  }
  return { data, errors };
}

/** The messages of an API answer's errors, as the API wrote them (an HTTP status when there is none). */
export function errorMessages(answer) {
  const errors = answer && answer.body && Array.isArray(answer.body.errors) ? answer.body.errors : [];
  if (errors.length > 0) return errors.map((e) => String(e && e.message));
  if (answer && !answer.ok) return [`HTTP ${answer.status}${answer.text ? `: ${answer.text}` : ""}`];
  return [];
}
