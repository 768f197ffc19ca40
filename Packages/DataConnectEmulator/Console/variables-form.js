// The model of an operation's variables form: which control each variable gets (from its GraphQL type and the
// introspected input object and enum types), how a control's text becomes a JSON value and back, and the
// variables object the form edits. Pure: no DOM; the Operations view renders the model.
//
// A field descriptor is `{typeText, required, kind, widget, ...}` where `kind` is
//   "scalar"  (`widget`: "text" | "int" | "float" | "int64" | "checkbox" | "date" | "datetime"),
//   "enum"    (`widget` "select", `options`: the values),
//   "json"    (`widget` "json": Any, Vector, unknown types, and input objects past the depth cap),
//   "list"    (`item`: the item's descriptor),
//   "object"  (`typeName`, `fields()`: the input fields' descriptors, built on first call, as
//             `[{name, description, default, descriptor}]`).
// Descriptors carry no paths: the renderer joins them (`fieldKey(["key", "id"])` = "key.id").

/** How deep input objects nest as fieldsets before the form falls back to a JSON editor. */
export const maxFormDepth = 4;

/**
 * Parses a GraphQL type reference as written in a variable definition ("[String!]!") into
 * `{required, name}` for a named type or `{required, list}` for a list (`list` is the item's reference).
 */
export function parseTypeRef(text) {
  let position = 0;
  const source = String(text).replace(/\s+/g, "");
  function parse() {
    let ref;
    if (source[position] === "[") {
      position += 1;
      const item = parse();
      if (source[position] !== "]") throw new Error(`expected ] in type ${text}`);
      position += 1;
      ref = { required: false, list: item };
    } else {
      const match = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(position));
      if (!match) throw new Error(`expected a type name in ${text}`);
      position += match[0].length;
      ref = { required: false, name: match[0] };
    }
    if (source[position] === "!") {
      position += 1;
      ref.required = true;
    }
    return ref;
  }
  const ref = parse();
  if (position !== source.length) throw new Error(`unexpected text in type ${text}`);
  return ref;
}

/** Converts an introspection type reference (`{kind, name, ofType}`) into the `parseTypeRef` shape. */
export function typeRefFromIntrospection(type) {
  if (type.kind === "NON_NULL") return { ...typeRefFromIntrospection(type.ofType), required: true };
  if (type.kind === "LIST") return { required: false, list: typeRefFromIntrospection(type.ofType) };
  return { required: false, name: type.name };
}

/** Writes a reference back as GraphQL text. */
export function typeRefText(ref) {
  const inner = ref.list ? `[${typeRefText(ref.list)}]` : ref.name;
  return ref.required ? `${inner}!` : inner;
}

/**
 * The `__schema` object of an introspection answer, accepting the HTTP body (`{data: {__schema}}`),
 * the data (`{__schema}`) or the schema itself. Returns null when there is none.
 */
export function schemaOf(introspection) {
  if (!introspection || typeof introspection !== "object") return null;
  if (introspection.data && introspection.data.__schema) return introspection.data.__schema;
  if (introspection.__schema) return introspection.__schema;
  if (Array.isArray(introspection.types)) return introspection;
  return null;
}

/** The introspected types by name. */
export function typeIndex(introspection) {
  const index = new Map();
  const schema = schemaOf(introspection);
  if (schema) for (const type of schema.types || []) index.set(type.name, type);
  return index;
}

const scalarWidgets = {
  String: "text",
  ID: "text",
  UUID: "text",
  Int: "int",
  Float: "float",
  Int64: "int64",
  Boolean: "checkbox",
  Date: "date",
  Timestamp: "datetime",
};

/**
 * The descriptor of a value of type `ref` (from `parseTypeRef`), resolving named types through `index`.
 * `depth` counts the input objects already entered; at `maxDepth` objects become JSON editors.
 */
export function describeType(ref, index, depth = 0, maxDepth = maxFormDepth) {
  const typeText = typeRefText(ref);
  const required = ref.required;
  if (ref.list) {
    return { typeText, required, kind: "list", item: describeType(ref.list, index, depth, maxDepth) };
  }
  const name = ref.name;
  const type = index.get(name);
  if (type && type.kind === "ENUM") {
    return {
      typeText,
      required,
      kind: "enum",
      widget: "select",
      typeName: name,
      options: (type.enumValues || []).map((value) => value.name),
    };
  }
  if (type && type.kind === "INPUT_OBJECT") {
    if (depth >= maxDepth) return { typeText, required, kind: "json", widget: "json", typeName: name };
    let fields = null;
    return {
      typeText,
      required,
      kind: "object",
      typeName: name,
      description: type.description || null,
      fields() {
        if (fields === null) {
          fields = (type.inputFields || []).map((field) => ({
            name: field.name,
            description: field.description || null,
            default: parseDefaultValue(field.defaultValue),
            descriptor: describeType(typeRefFromIntrospection(field.type), index, depth + 1, maxDepth),
          }));
        }
        return fields;
      },
    };
  }
  if (Object.prototype.hasOwnProperty.call(scalarWidgets, name)) {
    return { typeText, required, kind: "scalar", widget: scalarWidgets[name], typeName: name };
  }
  if (/_Expr$/.test(name)) {
    // CEL expressions such as `UUID_Expr` are strings.
    return { typeText, required, kind: "scalar", widget: "text", typeName: name };
  }
  return { typeText, required, kind: "json", widget: "json", typeName: name };
}

/**
 * An introspection default (GraphQL value text, e.g. "20", "\"x\"", "ASC", "[]") as a JSON value when it is
 * one (enum names become strings); undefined when absent or not readable.
 */
export function parseDefaultValue(text) {
  if (text === null || text === undefined) return undefined;
  const parsed = parseGraphQLValue(text);
  return parsed.ok ? parsed.value : undefined;
}

/**
 * Reads a GraphQL constant value ("[]", "20", "{a: [ASC, DESC]}", "\"text\"") as JSON (enum names become
 * strings). Returns `{ok: true, value}`, or `{ok: false}` when the text is not one whole value.
 */
export function parseGraphQLValue(text) {
  const source = String(text);
  let i = 0;
  const skip = () => {
    while (i < source.length && /[\s,]/.test(source[i])) i += 1;
  };
  function value() {
    skip();
    const ch = source[i];
    if (ch === "[") {
      i += 1;
      const items = [];
      for (skip(); source[i] !== "]"; skip()) {
        if (i >= source.length) throw new Error("unterminated list");
        items.push(value());
      }
      i += 1;
      return items;
    }
    if (ch === "{") {
      i += 1;
      const object = {};
      for (skip(); source[i] !== "}"; skip()) {
        const name = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(i));
        if (!name) throw new Error("expected a field name");
        i += name[0].length;
        skip();
        if (source[i] !== ":") throw new Error("expected :");
        i += 1;
        object[name[0]] = value();
      }
      i += 1;
      return object;
    }
    if (ch === '"') {
      const match = /^"(?:[^"\\\n\r]|\\.)*"/.exec(source.slice(i));
      if (!match) throw new Error("bad string");
      i += match[0].length;
      return JSON.parse(match[0]);
    }
    const number = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(source.slice(i));
    if (number && number[0] !== "-") {
      i += number[0].length;
      return Number(number[0]);
    }
    const name = /^[_A-Za-z][_0-9A-Za-z]*/.exec(source.slice(i));
    if (name) {
      i += name[0].length;
      if (name[0] === "true") return true;
      if (name[0] === "false") return false;
      if (name[0] === "null") return null;
      return name[0];
    }
    throw new Error("expected a value");
  }
  try {
    const result = value();
    skip();
    return i === source.length ? { ok: true, value: result } : { ok: false };
  } catch {
    return { ok: false };
  }
}

const textWidgets = new Set(["text", "int64", "date", "datetime"]);

/**
 * A variable's default from the model as JSON: a JSON value as it is, or GraphQL text ("[]", "20") read as a
 * value; a string stays a string for text-like controls when reading it would change its type.
 */
export function defaultValue(raw, descriptor) {
  if (raw === null || raw === undefined) return undefined;
  if (typeof raw !== "string") return raw;
  const parsed = parseGraphQLValue(raw);
  if (!parsed.ok) return raw;
  if (descriptor && descriptor.kind === "scalar" && textWidgets.has(descriptor.widget) && typeof parsed.value !== "string") {
    return raw;
  }
  return parsed.value;
}

/**
 * The form of an operation: one entry per variable of the model (`[{name, type, default}]`), as
 * `{name, default, descriptor}` (`default` is undefined when the variable has none).
 */
export function buildFormModel(variables, introspection, { maxDepth = maxFormDepth } = {}) {
  const index = typeIndex(introspection);
  return (variables || []).map((variable) => {
    let ref;
    try {
      ref = parseTypeRef(variable.type);
    } catch {
      ref = { required: false, name: String(variable.type) };
    }
    const descriptor = describeType(ref, index, 0, maxDepth);
    return { name: variable.name, default: defaultValue(variable.default, descriptor), descriptor };
  });
}

/** The variables the form starts with: each variable's default, when it has one. */
export function initialValues(formModel) {
  const values = {};
  for (const entry of formModel) {
    if (entry.default !== undefined) values[entry.name] = clone(entry.default);
  }
  return values;
}

/** The variables that must be given but are missing from `values` (top-level and in present objects). */
export function missingRequired(formModel, values) {
  const missing = [];
  function visit(descriptor, value, path, hasDefault) {
    if (value === undefined || value === null) {
      if (descriptor.required && !hasDefault) missing.push(fieldKey(path));
      return;
    }
    if (descriptor.kind === "object" && typeof value === "object" && !Array.isArray(value)) {
      for (const field of descriptor.fields()) {
        visit(field.descriptor, value[field.name], [...path, field.name], field.default !== undefined);
      }
    }
  }
  for (const entry of formModel) visit(entry.descriptor, values[entry.name], [entry.name], entry.default !== undefined);
  return missing;
}

/** The key of a path in `data-variable` attributes: segments joined with dots ("tags.0", "key.id"). */
export function fieldKey(path) {
  return path.join(".");
}

/** The value at `path` in `root`, or undefined. */
export function getPath(root, path) {
  let value = root;
  for (const segment of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = value[segment];
  }
  return value;
}

/**
 * Sets the value at `path` in `root` (mutating it), creating objects on the way; undefined removes an object
 * key (a list item becomes null, keeping the other items' positions).
 */
export function setPath(root, path, value) {
  let target = root;
  for (let i = 0; i < path.length - 1; i++) {
    const segment = path[i];
    if (target[segment] === null || typeof target[segment] !== "object") {
      target[segment] = typeof path[i + 1] === "number" ? [] : {};
    }
    target = target[segment];
  }
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(target)) target[last] = null;
    else delete target[last];
  } else {
    target[last] = value;
  }
  return root;
}

/**
 * The value a control's text stands for: `{value}` (undefined when the control is empty and the form leaves
 * the variable out) or `{error}`. Checkboxes pass a boolean; the rest pass the input's text.
 */
export function parseControl(descriptor, raw) {
  const widget = descriptor.widget;
  if (widget === "checkbox") return { value: Boolean(raw) };
  const text = raw === undefined || raw === null ? "" : String(raw);
  if (text.trim() === "") {
    if (widget === "text" && descriptor.required) return { value: text };
    return { value: undefined };
  }
  switch (widget) {
    case "int": {
      const number = Number(text.trim());
      if (!Number.isInteger(number)) return { error: `${text} is not an integer` };
      if (Math.abs(number) > 2147483647) return { error: `${text} does not fit in an Int (32 bits)` };
      return { value: number };
    }
    case "float": {
      const number = Number(text.trim());
      if (!Number.isFinite(number)) return { error: `${text} is not a number` };
      return { value: number };
    }
    case "int64": {
      const trimmed = text.trim();
      if (!/^-?\d+$/.test(trimmed)) return { error: `${text} is not an integer` };
      const big = BigInt(trimmed);
      if (big > 9223372036854775807n || big < -9223372036854775808n) {
        return { error: `${text} does not fit in an Int64` };
      }
      return { value: big.toString() };
    }
    case "date": {
      const date = dateInputToDate(text.trim());
      if (date === null) return { error: `${text} is not a date (YYYY-MM-DD, optionally with a time part)` };
      return { value: date };
    }
    case "datetime": {
      const iso = localDateTimeToRFC3339(text.trim());
      if (iso === null) return { error: `${text} is not a date and time` };
      return { value: iso };
    }
    case "select":
      return { value: text };
    case "json":
      try {
        return { value: JSON.parse(text) };
      } catch (error) {
        return { error: `not JSON: ${error.message}` };
      }
    default:
      return { value: text };
  }
}

/** The text a control shows for `value` (the inverse of `parseControl`); checkboxes get a boolean. */
export function controlText(descriptor, value) {
  const widget = descriptor.widget;
  if (widget === "checkbox") return value === true;
  if (value === undefined || value === null) return "";
  switch (widget) {
    case "datetime":
      return typeof value === "string" ? rfc3339ToLocalDateTime(value) || "" : "";
    case "json":
      return JSON.stringify(value);
    case "date":
      if (typeof value === "string") return dateInputToDate(value) ?? value;
      return JSON.stringify(value);
    case "select":
    case "text":
    case "int64":
      return typeof value === "string" ? value : JSON.stringify(value);
    default:
      return String(value);
  }
}

/**
 * A `Date` as the server reads it: `YYYY-MM-DD`, or that date followed by a Timestamp's time part (`T`, `hh:mm:ss`,
 * an optional fraction of 1 to 9 digits, and `Z` or an offset `+hh:mm`/`-hh:mm`; `t` and `z` in either case),
 * which is checked and dropped. Returns the date as written before the `T`, not the date of the instant in UTC
 * ("2024-05-01T23:30:00-05:00" is "2024-05-01"); null when the text is neither or the date does not exist.
 */
export function dateInputToDate(text) {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:[Zz]|[+-](\d{2}):(\d{2})))?$/.exec(
      String(text),
    );
  if (!match) return null;
  const [, y, mo, d, hour, minute, second, offsetHour, offsetMinute] = match;
  if (hour !== undefined && (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59)) return null;
  if (offsetHour !== undefined && (Number(offsetHour) > 23 || Number(offsetMinute) > 59)) return null;
  const year = Number(y);
  const month = Number(mo);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || Number(d) < 1 || Number(d) > lengths[month - 1]) return null;
  return `${y}-${mo}-${d}`;
}

function pad(number, width = 2) {
  return String(number).padStart(width, "0");
}

/**
 * A `datetime-local` input's value ("2026-12-02T09:30" or with seconds), read in the page's time zone, as an
 * RFC 3339 timestamp in UTC ("2026-12-02T08:30:00.000Z"); null when it is not one.
 */
export function localDateTimeToRFC3339(local) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h, mi, s = "0", ms = "0"] = match;
  const date = new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Number(ms.padEnd(3, "0")));
  if (Number.isNaN(date.getTime())) return null;
  return date.toISOString();
}

/** An RFC 3339 timestamp as a `datetime-local` value in the page's time zone (with seconds); null if invalid. */
export function rfc3339ToLocalDateTime(iso) {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(iso)) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`
  );
}

/** The first value a new list item gets: false for checkboxes, {} for objects, [] for lists, else null. */
export function newItemValue(descriptor) {
  if (descriptor.kind === "object") return {};
  if (descriptor.kind === "list") return [];
  if (descriptor.widget === "checkbox") return false;
  return null;
}

/**
 * The variables as sent: `values` without the optional input objects left empty (`{}`), so an untouched
 * optional fieldset sends nothing.
 */
export function variablesToSend(formModel, values) {
  const result = {};
  function prune(descriptor, value) {
    if (value === undefined) return undefined;
    if (descriptor.kind === "object" && value && typeof value === "object" && !Array.isArray(value)) {
      const out = {};
      const known = new Map(descriptor.fields().map((field) => [field.name, field.descriptor]));
      for (const [key, inner] of Object.entries(value)) {
        const innerDescriptor = known.get(key);
        const pruned = innerDescriptor ? prune(innerDescriptor, inner) : inner;
        if (pruned !== undefined) out[key] = pruned;
      }
      if (Object.keys(out).length === 0 && !descriptor.required) return undefined;
      return out;
    }
    if (descriptor.kind === "list" && Array.isArray(value)) {
      return value.map((item) => {
        const pruned = prune(descriptor.item, item);
        return pruned === undefined ? null : pruned;
      });
    }
    return value;
  }
  const known = new Map(formModel.map((entry) => [entry.name, entry.descriptor]));
  for (const [key, value] of Object.entries(values)) {
    const descriptor = known.get(key);
    const pruned = descriptor ? prune(descriptor, value) : value;
    if (pruned !== undefined) result[key] = pruned;
  }
  return result;
}

/** Parses the JSON variables editor's text: `{ok, value}` for an object (empty text is `{}`), else `{ok: false, error}`. */
export function parseVariablesText(text) {
  if (String(text).trim() === "") return { ok: true, value: {} };
  let value;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: error.message };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "variables must be a JSON object" };
  }
  return { ok: true, value };
}

/** Pretty JSON of the variables, as the JSON editor shows it. */
export function variablesText(values) {
  return JSON.stringify(values, null, 2);
}

function clone(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}
