// GraphQL for the console's editor: a tokenizer, a parser of executable documents that reports the first
// syntax error with its line and column, and completion at a cursor from an introspection result.
// Pure: no DOM; node imports it in the unit tests.
//
// Completion runs the same parser over the tokens before the cursor: when it runs out of tokens it knows what
// it was about to read (a field of type T, an argument of field f, a value of type V, ...), and that
// expectation, with the schema, gives the suggestions.

import { schemaOf, typeRefFromIntrospection, typeRefText } from "./variables-form.js";

// MARK: - Tokens

const punctuators = new Set(["!", "$", "&", "(", ")", ":", "=", "@", "[", "]", "{", "|", "}"]);

/** A syntax error at a position: `{message, line, column, offset}` (line and column from 1). */
export class GraphQLSyntaxError extends Error {
  constructor(message, offset, line, column) {
    super(message);
    this.offset = offset;
    this.line = line;
    this.column = column;
  }
}

/**
 * Splits `source` into tokens `{kind, value, start, end, line, column}` where `kind` is "punct", "spread"
 * (`...`), "name", "int", "float", "string" (also block strings) or "comment". Commas and white space are
 * skipped. Returns `{tokens, error}`: tokens up to the first lexical error, and that error (or null).
 */
export function tokenize(source) {
  const tokens = [];
  let line = 1;
  let lineStart = 0;
  let i = 0;
  const length = source.length;
  const at = (offset) => ({ line, column: offset - lineStart + 1 });
  function fail(message, offset) {
    const position = at(offset);
    return { tokens, error: new GraphQLSyntaxError(`Syntax Error: ${message}`, offset, position.line, position.column) };
  }
  function newline(offset) {
    line += 1;
    lineStart = offset;
  }
  while (i < length) {
    const ch = source[i];
    if (ch === "\uFEFF" || ch === " " || ch === "\t" || ch === ",") {
      i += 1;
      continue;
    }
    if (ch === "\n") {
      i += 1;
      newline(i);
      continue;
    }
    if (ch === "\r") {
      i += source[i + 1] === "\n" ? 2 : 1;
      newline(i);
      continue;
    }
    const start = i;
    const position = at(start);
    if (ch === "#") {
      while (i < length && source[i] !== "\n" && source[i] !== "\r") i += 1;
      tokens.push({ kind: "comment", value: source.slice(start, i), start, end: i, ...position });
      continue;
    }
    if (punctuators.has(ch)) {
      i += 1;
      tokens.push({ kind: "punct", value: ch, start, end: i, ...position });
      continue;
    }
    if (ch === ".") {
      if (source[i + 1] === "." && source[i + 2] === ".") {
        i += 3;
        tokens.push({ kind: "spread", value: "...", start, end: i, ...position });
        continue;
      }
      return fail(`Unexpected character: ".".`, start);
    }
    if (/[_A-Za-z]/.test(ch)) {
      while (i < length && /[_0-9A-Za-z]/.test(source[i])) i += 1;
      tokens.push({ kind: "name", value: source.slice(start, i), start, end: i, ...position });
      continue;
    }
    if (ch === "-" || /[0-9]/.test(ch)) {
      const match = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(source.slice(start));
      if (!match) return fail(`Invalid number, expected digit but got: "${source[start + 1] ?? "<EOF>"}".`, start);
      i = start + match[0].length;
      if (i < length && /[_A-Za-z.]/.test(source[i])) {
        return fail(`Invalid number, expected digit but got: "${source[i]}".`, i);
      }
      const kind = match[2] || match[3] ? "float" : "int";
      tokens.push({ kind, value: match[0], start, end: i, ...position });
      continue;
    }
    if (ch === '"') {
      if (source.startsWith('"""', i)) {
        i += 3;
        let closed = false;
        while (i < length) {
          if (source.startsWith('\\"""', i)) {
            i += 4;
          } else if (source.startsWith('"""', i)) {
            i += 3;
            closed = true;
            break;
          } else if (source[i] === "\n") {
            i += 1;
            newline(i);
          } else if (source[i] === "\r") {
            i += source[i + 1] === "\n" ? 2 : 1;
            newline(i);
          } else {
            i += 1;
          }
        }
        if (!closed) return fail("Unterminated string.", i);
        tokens.push({ kind: "string", value: source.slice(start, i), start, end: i, ...position });
        continue;
      }
      i += 1;
      let closed = false;
      while (i < length) {
        const c = source[i];
        if (c === "\n" || c === "\r") break;
        if (c === "\\") {
          const next = source[i + 1];
          if (next === "u") {
            if (!/^[0-9A-Fa-f]{4}$/.test(source.slice(i + 2, i + 6))) {
              return fail(`Invalid Unicode escape sequence: "${source.slice(i, i + 6)}".`, i);
            }
            i += 6;
            continue;
          }
          if (!'"\\/bfnrt'.includes(next)) return fail(`Invalid character escape sequence: "\\${next ?? ""}".`, i);
          i += 2;
          continue;
        }
        if (c === '"') {
          i += 1;
          closed = true;
          break;
        }
        i += 1;
      }
      if (!closed) return fail("Unterminated string.", i);
      tokens.push({ kind: "string", value: source.slice(start, i), start, end: i, ...position });
      continue;
    }
    return fail(`Unexpected character: ${JSON.stringify(ch)}.`, start);
  }
  return { tokens, error: null };
}

// MARK: - Schema access

/** Schema helpers over an introspection result (any of the shapes `schemaOf` accepts). */
export function schemaModel(introspection) {
  const schema = schemaOf(introspection);
  const types = new Map();
  if (schema) for (const type of schema.types || []) types.set(type.name, type);
  const directives = (schema && schema.directives) || [];
  return {
    types,
    directives,
    queryType: schema && schema.queryType ? schema.queryType.name : "Query",
    mutationType: schema && schema.mutationType ? schema.mutationType.name : null,
    subscriptionType: schema && schema.subscriptionType ? schema.subscriptionType.name : null,
    available: Boolean(schema),
  };
}

const typenameField = {
  name: "__typename",
  description: "The name of the object's type.",
  args: [],
  type: { kind: "NON_NULL", ofType: { kind: "SCALAR", name: "String" } },
};

function namedTypeName(type) {
  let current = type;
  while (current && (current.kind === "NON_NULL" || current.kind === "LIST")) current = current.ofType;
  return current ? current.name : null;
}

/** GraphQL text of an introspection type reference ("[Movie!]!"). */
export function introspectionTypeText(type) {
  if (!type) return "";
  if (type.kind === "NON_NULL") return `${introspectionTypeText(type.ofType)}!`;
  if (type.kind === "LIST") return `[${introspectionTypeText(type.ofType)}]`;
  return type.name;
}

function fieldsOf(schema, typeName) {
  const type = typeName ? schema.types.get(typeName) : null;
  if (!type || !Array.isArray(type.fields)) return [];
  const fields = [...type.fields];
  if (typeName === schema.queryType) {
    const hasSchema = fields.some((f) => f.name === "__schema");
    if (!hasSchema) {
      fields.push({
        name: "__schema",
        description: "The schema, for introspection.",
        args: [],
        type: { kind: "NON_NULL", ofType: { kind: "OBJECT", name: "__Schema" } },
      });
    }
  }
  fields.push(typenameField);
  return fields;
}

function fieldOf(schema, typeName, fieldName) {
  return fieldsOf(schema, typeName).find((field) => field.name === fieldName) || null;
}

// MARK: - Parser

const NONE = { kind: "none" };

class Expectation {
  constructor(expected) {
    this.expected = expected;
  }
}

/**
 * A recursive-descent parser of executable documents (operations and fragments). In checking mode it throws
 * a `GraphQLSyntaxError` at the first error; in completion mode (`completing`) its tokens end at the cursor
 * and it throws an `Expectation` describing what it would read next.
 */
class Parser {
  constructor(tokens, source, { completing = false, schema = null, variables = new Map() } = {}) {
    this.tokens = tokens;
    this.source = source;
    this.position = 0;
    this.completing = completing;
    this.schema = schema || schemaModel(null);
    this.variables = variables;
    this.operations = [];
  }

  // Token access. `peek(expected)` throws the expectation when completing and out of tokens.
  peek(expected = NONE) {
    if (this.position >= this.tokens.length) {
      if (this.completing) throw new Expectation(expected);
      return null;
    }
    return this.tokens[this.position];
  }

  advance(expected = NONE) {
    const token = this.peek(expected);
    if (!token) throw this.unexpected(null);
    this.position += 1;
    return token;
  }

  isPunct(token, value) {
    return token !== null && token.kind === "punct" && token.value === value;
  }

  expectPunct(value, expected = NONE) {
    const token = this.peek(expected);
    if (!this.isPunct(token, value)) throw this.unexpected(token, `Expected "${value}"`);
    this.position += 1;
    return token;
  }

  expectName(expected = NONE, keyword = null) {
    const token = this.peek(expected);
    if (!token || token.kind !== "name" || (keyword && token.value !== keyword)) {
      throw this.unexpected(token, keyword ? `Expected "${keyword}"` : "Expected Name");
    }
    this.position += 1;
    return token;
  }

  unexpected(token, expectedText = null) {
    if (this.completing) return new Expectation(NONE);
    const found = token ? describeToken(token) : "<EOF>";
    const message = expectedText ? `Syntax Error: ${expectedText}, found ${found}.` : `Syntax Error: Unexpected ${found}.`;
    if (token) return new GraphQLSyntaxError(message, token.start, token.line, token.column);
    const { offset, line, column } = endPosition(this.source);
    return new GraphQLSyntaxError(message, offset, line, column);
  }

  // Document : Definition+
  parseDocument() {
    do {
      this.parseDefinition();
    } while (this.completing || this.position < this.tokens.length);
  }

  // Definition : OperationDefinition | FragmentDefinition
  parseDefinition() {
    const token = this.peek({ kind: "definition" });
    if (this.isPunct(token, "{")) {
      const operation = { kind: "query", name: null, start: token.start, end: token.end };
      this.operations.push(operation);
      this.parseSelectionSet(this.schema.queryType);
      operation.end = this.tokens[this.position - 1].end;
      return;
    }
    if (token && token.kind === "name") {
      if (token.value === "query" || token.value === "mutation" || token.value === "subscription") {
        this.parseOperation();
        return;
      }
      if (token.value === "fragment") {
        this.parseFragment();
        return;
      }
    }
    throw this.unexpected(token);
  }

  // OperationDefinition : OperationType Name? VariableDefinitions? Directives? SelectionSet
  parseOperation() {
    const keyword = this.advance();
    const operation = { kind: keyword.value, name: null, start: keyword.start, end: keyword.end };
    this.operations.push(operation);
    let token = this.peek();
    if (token && token.kind === "name") {
      operation.name = token.value;
      this.position += 1;
      token = this.peek();
    }
    if (this.isPunct(token, "(")) this.parseVariableDefinitions();
    this.parseDirectives(NONE);
    const root =
      keyword.value === "mutation"
        ? this.schema.mutationType
        : keyword.value === "subscription"
          ? this.schema.subscriptionType
          : this.schema.queryType;
    this.parseSelectionSet(root);
    operation.end = this.tokens[this.position - 1].end;
  }

  // VariableDefinitions : ( VariableDefinition+ )
  // VariableDefinition : Variable : Type DefaultValue? Directives?
  parseVariableDefinitions() {
    this.expectPunct("(");
    do {
      this.expectPunct("$");
      const name = this.expectName();
      this.expectPunct(":");
      const type = this.parseType();
      this.variables.set(name.value, type);
      if (this.isPunct(this.peek(), "=")) {
        this.position += 1;
        this.parseValue(type, true);
      }
      this.parseDirectives(NONE);
    } while (!this.isPunct(this.peek(), ")"));
    this.position += 1;
  }

  // Type : NamedType | ListType | NonNullType
  parseType() {
    const token = this.peek({ kind: "input-type" });
    let type;
    if (this.isPunct(token, "[")) {
      this.position += 1;
      const item = this.parseType();
      this.expectPunct("]");
      type = { required: false, list: item };
    } else {
      const name = this.expectName({ kind: "input-type" });
      type = { required: false, name: name.value };
    }
    if (this.isPunct(this.peek(), "!")) {
      this.position += 1;
      type.required = true;
    }
    return type;
  }

  // FragmentDefinition : fragment FragmentName TypeCondition Directives? SelectionSet
  parseFragment() {
    this.advance();
    const name = this.expectName();
    if (name.value === "on") throw this.unexpected(name);
    this.expectName(NONE, "on");
    const typeName = this.expectName({ kind: "type-condition" }).value;
    this.parseDirectives(NONE);
    this.parseSelectionSet(typeName);
  }

  // SelectionSet : { Selection+ }
  parseSelectionSet(typeName) {
    this.expectPunct("{");
    const expected = { kind: "field", type: typeName };
    do {
      this.parseSelection(typeName);
    } while (!this.isPunct(this.peek(expected), "}"));
    this.position += 1;
  }

  // Selection : Field | FragmentSpread | InlineFragment
  parseSelection(typeName) {
    const expected = { kind: "field", type: typeName };
    const token = this.peek(expected);
    if (token && token.kind === "spread") {
      this.position += 1;
      const next = this.peek({ kind: "spread", type: typeName });
      if (next && next.kind === "name" && next.value === "on") {
        this.position += 1;
        const condition = this.expectName({ kind: "type-condition" }).value;
        this.parseDirectives(NONE);
        this.parseSelectionSet(condition);
        return;
      }
      if (next && next.kind === "name") {
        this.position += 1;
        this.parseDirectives(expected);
        return;
      }
      this.parseDirectives(NONE);
      this.parseSelectionSet(typeName);
      return;
    }
    if (token && token.kind === "name") {
      this.parseField(typeName);
      return;
    }
    throw this.unexpected(token, "Expected Name");
  }

  // Field : Alias? Name Arguments? Directives? SelectionSet?
  parseField(typeName) {
    const sibling = { kind: "field", type: typeName };
    let name = this.advance().value;
    let token = this.peek(sibling);
    if (this.isPunct(token, ":")) {
      this.position += 1;
      name = this.expectName({ kind: "field", type: typeName }).value;
      token = this.peek(sibling);
    }
    const field = this.schema.available ? fieldOf(this.schema, typeName, name) : null;
    if (this.isPunct(token, "(")) {
      this.parseArguments(field ? field.args || [] : []);
    }
    this.parseDirectives(sibling);
    token = this.peek(sibling);
    if (this.isPunct(token, "{")) {
      this.parseSelectionSet(field ? namedTypeName(field.type) : null);
    }
  }

  // Arguments : ( Argument+ )   Argument : Name : Value
  parseArguments(argumentDefinitions, isConst = false) {
    this.expectPunct("(");
    const used = new Set();
    const expected = { kind: "argument", args: argumentDefinitions, used };
    do {
      const name = this.expectName(expected).value;
      used.add(name);
      this.expectPunct(":");
      const definition = argumentDefinitions.find((argument) => argument.name === name);
      this.parseValue(definition ? typeRefFromIntrospection(definition.type) : null, isConst);
    } while (!this.isPunct(this.peek(expected), ")"));
    this.position += 1;
  }

  // Directives : Directive+   Directive : @ Name Arguments?
  parseDirectives(expected) {
    while (this.isPunct(this.peek(expected), "@")) {
      this.position += 1;
      const name = this.expectName({ kind: "directive" }).value;
      const directive = this.schema.directives.find((d) => d.name === name);
      if (this.isPunct(this.peek(expected), "(")) this.parseArguments(directive ? directive.args || [] : []);
    }
  }

  // Value : Variable | IntValue | FloatValue | StringValue | BooleanValue | NullValue | EnumValue | ListValue
  //         | ObjectValue
  parseValue(typeRef, isConst) {
    const variables = isConst ? new Map() : this.variables;
    const token = this.peek({ kind: "value", type: typeRef, variables });
    if (this.isPunct(token, "$") && !isConst) {
      this.position += 1;
      this.expectName({ kind: "variable", type: typeRef, variables: this.variables });
      return;
    }
    if (this.isPunct(token, "[")) {
      this.position += 1;
      const itemRef = typeRef ? typeRef.list || typeRef : null;
      const expected = { kind: "value", type: itemRef, variables, inList: true };
      while (!this.isPunct(this.peek(expected), "]")) this.parseValue(itemRef, isConst);
      this.position += 1;
      return;
    }
    if (this.isPunct(token, "{")) {
      this.position += 1;
      const inputTypeName = typeRef && !typeRef.list ? typeRef.name : null;
      const inputType = inputTypeName ? this.schema.types.get(inputTypeName) : null;
      const fields = inputType && Array.isArray(inputType.inputFields) ? inputType.inputFields : [];
      const used = new Set();
      const expected = { kind: "object-field", type: inputTypeName, fields, used };
      while (!this.isPunct(this.peek(expected), "}")) {
        const name = this.expectName(expected).value;
        used.add(name);
        this.expectPunct(":");
        const definition = fields.find((field) => field.name === name);
        this.parseValue(definition ? typeRefFromIntrospection(definition.type) : null, isConst);
      }
      this.position += 1;
      return;
    }
    if (token && ["int", "float", "string", "name"].includes(token.kind)) {
      this.position += 1;
      return;
    }
    throw this.unexpected(token);
  }
}

function describeToken(token) {
  if (token.kind === "name") return `Name "${token.value}"`;
  if (token.kind === "int") return `Int "${token.value}"`;
  if (token.kind === "float") return `Float "${token.value}"`;
  if (token.kind === "string") return `String ${token.value.length > 30 ? `${token.value.slice(0, 27)}..."` : token.value}`;
  return `"${token.value}"`;
}

function endPosition(source) {
  const lines = source.split(/\r\n|\r|\n/);
  return { offset: source.length, line: lines.length, column: lines[lines.length - 1].length + 1 };
}

function significant(tokens) {
  return tokens.filter((token) => token.kind !== "comment");
}

// MARK: - Checking

/**
 * Parses `source` and returns `{errors, operations}`: `errors` holds the first syntax error as
 * `{message, line, column, offset}` (none for a blank document), `operations` the operations read
 * (`{kind, name, start, end}` with source offsets).
 */
export function checkDocument(source) {
  const { tokens, error } = tokenize(source);
  const significantTokens = significant(tokens);
  if (error) {
    const parser = new Parser(significantTokens, source);
    try {
      parser.parseDocument();
    } catch (caught) {
      // A parse error before the lexical error is the first error of the document.
      if (caught instanceof GraphQLSyntaxError && caught.offset < error.offset) {
        return { errors: [plainError(caught)], operations: parser.operations };
      }
    }
    return { errors: [plainError(error)], operations: parser.operations };
  }
  if (significantTokens.length === 0) return { errors: [], operations: [] };
  const parser = new Parser(significantTokens, source);
  try {
    parser.parseDocument();
  } catch (caught) {
    if (caught instanceof GraphQLSyntaxError) return { errors: [plainError(caught)], operations: parser.operations };
    throw caught;
  }
  return { errors: [], operations: parser.operations };
}

function plainError(error) {
  return { message: error.message, line: error.line, column: error.column, offset: error.offset };
}

/**
 * The operation to run for a cursor: the one containing `cursor`, else the only one, else the first; null when
 * the document has none. Returns `{kind, name, start, end}`.
 */
export function operationAt(source, cursor) {
  const { operations } = checkDocument(source);
  if (operations.length === 0) return null;
  return operations.find((op) => cursor >= op.start && cursor <= op.end) || operations[0];
}

/** Line and column (from 1) of a source offset. */
export function lineColumn(source, offset) {
  const before = source.slice(0, offset);
  const lines = before.split(/\r\n|\r|\n/);
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** The source offset of a line and column (from 1), clamped to the source. */
export function offsetOf(source, line, column) {
  let offset = 0;
  let currentLine = 1;
  while (currentLine < line && offset < source.length) {
    const ch = source[offset];
    offset += 1;
    if (ch === "\n" || (ch === "\r" && source[offset] !== "\n")) currentLine += 1;
  }
  return Math.min(source.length, offset + Math.max(0, column - 1));
}

// MARK: - Completion

function documentVariables(tokens) {
  const variables = new Map();
  for (let i = 0; i + 3 < tokens.length; i++) {
    if (tokens[i].kind === "punct" && tokens[i].value === "$" && tokens[i + 1].kind === "name") {
      if (tokens[i + 2].kind === "punct" && tokens[i + 2].value === ":") {
        const typeTokens = [];
        for (let j = i + 3; j < tokens.length; j++) {
          const t = tokens[j];
          if (t.kind === "name" || (t.kind === "punct" && "[]!".includes(t.value))) {
            if (t.kind === "name" && typeTokens.length > 0 && typeTokens[typeTokens.length - 1].kind === "name") break;
            typeTokens.push(t);
          } else break;
        }
        const parser = new Parser(typeTokens, "");
        try {
          variables.set(tokens[i + 1].value, parser.parseType());
        } catch {
          // An incomplete type: the variable is offered without one.
          variables.set(tokens[i + 1].value, null);
        }
      }
    }
  }
  return variables;
}

function documentFragments(tokens) {
  const fragments = [];
  for (let i = 0; i + 3 < tokens.length; i++) {
    if (
      tokens[i].kind === "name" &&
      tokens[i].value === "fragment" &&
      tokens[i + 1].kind === "name" &&
      tokens[i + 2].kind === "name" &&
      tokens[i + 2].value === "on" &&
      tokens[i + 3].kind === "name"
    ) {
      fragments.push({ name: tokens[i + 1].value, type: tokens[i + 3].value });
    }
  }
  return fragments;
}

/**
 * What the document expects at `cursor`: `{expected, prefix, from, to}` where `expected` is an object with a
 * `kind` ("definition", "field", "spread", "type-condition", "argument", "object-field", "value", "variable",
 * "input-type", "directive", "none"), `prefix` the partial name before the cursor, and `from`/`to` the range a
 * suggestion replaces. Inside a string or a comment the kind is "none".
 */
export function completionContext(source, cursor, introspection) {
  const schema = schemaModel(introspection);
  const { tokens: allTokens, error } = tokenize(source);
  if (error && error.offset < cursor) return { expected: NONE, prefix: "", from: cursor, to: cursor, schema };
  let from = cursor;
  let to = cursor;
  let prefix = "";
  let variableOnly = false;
  const before = [];
  for (const token of allTokens) {
    if (token.end < cursor) {
      before.push(token);
      continue;
    }
    if (token.start < cursor && token.end >= cursor) {
      if (token.kind === "comment" || token.kind === "string") {
        if (token.end > cursor || token.kind === "comment") {
          return { expected: NONE, prefix: "", from: cursor, to: cursor, schema };
        }
        before.push(token);
        continue;
      }
      if (token.kind === "name") {
        from = token.start;
        to = token.end;
        prefix = source.slice(token.start, cursor);
        continue;
      }
      if (token.kind === "punct" && token.value === "$" && token.end === cursor) {
        from = token.start;
        variableOnly = true;
        continue;
      }
      if (token.end === cursor) before.push(token);
    }
    break;
  }
  // A `$` right before the partial name: complete the variable.
  const last = before[before.length - 1];
  if (prefix !== "" && last && last.kind === "punct" && last.value === "$" && last.end === from) {
    before.pop();
    from = last.start;
    variableOnly = true;
  }
  const tokens = significant(before);
  const parser = new Parser(tokens, source, {
    completing: true,
    schema,
    variables: documentVariables(significant(allTokens)),
  });
  let expected = NONE;
  try {
    parser.parseDocument();
  } catch (caught) {
    if (caught instanceof Expectation) expected = caught.expected;
    else if (!(caught instanceof GraphQLSyntaxError)) throw caught;
  }
  if (variableOnly) {
    expected =
      expected.kind === "value" || expected.kind === "variable"
        ? { kind: "variable", type: expected.type, variables: parser.variables }
        : NONE;
  }
  return { expected, prefix, from, to, fragments: documentFragments(significant(allTokens)), schema };
}

function compatible(variableType, expectedType) {
  if (!variableType || !expectedType) return true;
  if (Boolean(variableType.list) !== Boolean(expectedType.list)) {
    // A single value may stand for a list of one (input coercion).
    return Boolean(expectedType.list) && !variableType.list && compatible(variableType, expectedType.list);
  }
  if (variableType.list) return compatible(variableType.list, expectedType.list);
  return variableType.name === expectedType.name;
}

function namedOf(typeRef) {
  let current = typeRef;
  while (current && current.list) current = current.list;
  return current ? current.name : null;
}

/** Every suggestion for an expectation, before filtering: `[{label, detail, kind, insertText, description}]`. */
export function suggestionsFor(context) {
  const { expected, schema } = context;
  const items = [];
  const add = (label, detail, kind, description = null, insertText = label) =>
    items.push({ label, detail, kind, insertText, description });
  switch (expected.kind) {
    case "definition":
      add("query", "operation", "keyword");
      add("mutation", "operation", "keyword");
      add("fragment", "fragment definition", "keyword");
      break;
    case "field":
      for (const field of fieldsOf(schema, expected.type)) {
        add(field.name, introspectionTypeText(field.type), "field", field.description);
      }
      break;
    case "spread":
      add("on", "inline fragment", "keyword");
      for (const fragment of context.fragments || []) add(fragment.name, `fragment on ${fragment.type}`, "fragment");
      break;
    case "type-condition":
      for (const type of schema.types.values()) {
        if (["OBJECT", "INTERFACE", "UNION"].includes(type.kind) && !type.name.startsWith("__")) {
          add(type.name, type.kind.toLowerCase(), "type", type.description);
        }
      }
      break;
    case "input-type":
      for (const type of schema.types.values()) {
        if (["SCALAR", "ENUM", "INPUT_OBJECT"].includes(type.kind) && !type.name.startsWith("__")) {
          add(type.name, type.kind === "INPUT_OBJECT" ? "input" : type.kind.toLowerCase(), "type", type.description);
        }
      }
      break;
    case "argument":
      for (const argument of expected.args) {
        if (!expected.used.has(argument.name)) {
          add(argument.name, introspectionTypeText(argument.type), "argument", argument.description);
        }
      }
      break;
    case "object-field":
      for (const field of expected.fields) {
        if (!expected.used.has(field.name)) {
          add(field.name, introspectionTypeText(field.type), "input-field", field.description);
        }
      }
      break;
    case "directive":
      for (const directive of schema.directives) add(directive.name, "directive", "directive", directive.description);
      break;
    case "value": {
      const typeName = namedOf(expected.type);
      const type = typeName ? schema.types.get(typeName) : null;
      if (type && type.kind === "ENUM") {
        for (const value of type.enumValues || []) add(value.name, typeName, "enum", value.description);
      }
      if (typeName === "Boolean") {
        add("true", "Boolean", "value");
        add("false", "Boolean", "value");
      }
      for (const [name, variableType] of expected.variables || []) {
        if (compatible(variableType, expected.type)) {
          add(`$${name}`, variableType ? typeRefText(variableType) : "variable", "variable", null, `$${name}`);
        }
      }
      break;
    }
    case "variable":
      for (const [name, variableType] of expected.variables || []) {
        if (compatible(variableType, expected.type)) {
          add(`$${name}`, variableType ? typeRefText(variableType) : "variable", "variable", null, `$${name}`);
        }
      }
      break;
    default:
      break;
  }
  return items;
}

/**
 * Completion at `cursor`: `{items, from, to}` where `items` are the suggestions matching the partial name
 * (names starting with it first, then names containing it, case-insensitively) and `from`/`to` the range an
 * item's `insertText` replaces.
 */
export function complete(source, cursor, introspection, { limit = 200 } = {}) {
  const context = completionContext(source, cursor, introspection);
  const all = suggestionsFor(context);
  const needle = context.prefix.toLowerCase();
  const label = (item) => item.label.replace(/^\$/, "").toLowerCase();
  const starting = all.filter((item) => label(item).startsWith(needle));
  const containing = needle ? all.filter((item) => !label(item).startsWith(needle) && label(item).includes(needle)) : [];
  const items = [...starting, ...containing].slice(0, limit);
  return { items, from: context.from, to: context.to, expected: context.expected.kind };
}
