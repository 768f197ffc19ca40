import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  buildFormModel,
  controlText,
  dateInputToDate,
  defaultValue,
  parseGraphQLValue,
  fieldKey,
  getPath,
  initialValues,
  localDateTimeToRFC3339,
  missingRequired,
  newItemValue,
  parseControl,
  parseTypeRef,
  parseVariablesText,
  rfc3339ToLocalDateTime,
  setPath,
  typeRefText,
  variablesToSend,
} from "../Console/variables-form.js";

const introspection = JSON.parse(readFileSync(new URL("./fixtures/movies-introspection.json", import.meta.url)));

test("type references parse with lists and non-null markers", () => {
  assert.deepEqual(parseTypeRef("[String!]!"), { required: true, list: { required: true, name: "String" } });
  assert.deepEqual(parseTypeRef("Movie_Key"), { required: false, name: "Movie_Key" });
  assert.equal(typeRefText(parseTypeRef("[ [Int] ! ]")), "[[Int]!]");
  assert.throws(() => parseTypeRef("[String"), /expected \]/);
});

test("scalars, enums, lists and defaults of a real operation (createMovieWithMetadata, listMoviesPaged)", () => {
  const model = buildFormModel(
    [
      { name: "title", type: "String!", default: null },
      { name: "releaseYear", type: "Int!", default: null },
      { name: "aspectratio", type: "AspectRatio", default: null },
      { name: "tags", type: "[String!]", default: null },
      { name: "releaseDate", type: "Date", default: null },
      { name: "durationHours", type: "Float", default: null },
      { name: "budget", type: "Int64", default: null },
      { name: "extras", type: "Any", default: null },
      { name: "createdAt", type: "Timestamp", default: null },
      { name: "isClassic", type: "Boolean", default: null },
      { name: "orderByRating", type: "OrderDirection", default: null },
      { name: "limit", type: "Int", default: 20 },
    ],
    introspection,
  );
  const byName = Object.fromEntries(model.map((entry) => [entry.name, entry.descriptor]));
  assert.deepEqual(
    model.map((entry) => [entry.name, entry.descriptor.kind, entry.descriptor.widget ?? null, entry.descriptor.required]),
    [
      ["title", "scalar", "text", true],
      ["releaseYear", "scalar", "int", true],
      ["aspectratio", "enum", "select", false],
      ["tags", "list", null, false],
      ["releaseDate", "scalar", "date", false],
      ["durationHours", "scalar", "float", false],
      ["budget", "scalar", "int64", false],
      ["extras", "json", "json", false],
      ["createdAt", "scalar", "datetime", false],
      ["isClassic", "scalar", "checkbox", false],
      ["orderByRating", "enum", "select", false],
      ["limit", "scalar", "int", false],
    ],
  );
  assert.deepEqual(byName.aspectratio.options, ["ACADEMY", "WIDESCREEN", "ANAMORPHIC"]);
  assert.deepEqual(byName.orderByRating.options, ["ASC", "DESC"]);
  assert.deepEqual(
    [byName.tags.item.kind, byName.tags.item.widget, byName.tags.item.required, byName.tags.typeText],
    ["scalar", "text", true, "[String!]"],
  );
  assert.deepEqual(initialValues(model), { limit: 20 });
  assert.deepEqual(missingRequired(model, { title: "Alien" }), ["releaseYear"]);
});

test("nested input objects resolve through introspection (getMovieByKey's Movie_Key)", () => {
  const [key] = buildFormModel([{ name: "key", type: "Movie_Key!", default: null }], introspection);
  assert.equal(key.descriptor.kind, "object");
  assert.equal(key.descriptor.typeName, "Movie_Key");
  assert.deepEqual(
    key.descriptor.fields().map((f) => [f.name, f.descriptor.kind, f.descriptor.widget, f.descriptor.typeText]),
    [
      ["id", "scalar", "text", "UUID"],
      ["id_expr", "scalar", "text", "UUID_Expr"],
    ],
  );
  assert.deepEqual(missingRequired([key], {}), ["key"]);
  const values = {};
  setPath(values, ["key", "id"], "252ff53a-a807-5c12-840b-96bff4798d7b");
  assert.deepEqual(values, { key: { id: "252ff53a-a807-5c12-840b-96bff4798d7b" } });
  assert.equal(fieldKey(["key", "id"]), "key.id");
  assert.equal(getPath(values, ["key", "id"]), "252ff53a-a807-5c12-840b-96bff4798d7b");
});

test("recursive filters nest lazily and stop at the depth cap with a JSON editor", () => {
  const [where] = buildFormModel([{ name: "where", type: "Movie_Filter", default: null }], introspection, {
    maxDepth: 2,
  });
  const fields = Object.fromEntries(where.descriptor.fields().map((f) => [f.name, f.descriptor]));
  assert.equal(fields._and.kind, "list");
  assert.equal(fields._and.item.kind, "object");
  assert.equal(fields._and.item.typeName, "Movie_Filter");
  assert.equal(fields.title.typeName, "String_Filter");
  const titleFields = Object.fromEntries(fields.title.fields().map((f) => [f.name, f.descriptor]));
  assert.equal(titleFields.eq.widget, "text");
  assert.equal(titleFields.in.kind, "list");
  // Depth 2: objects inside Movie_Filter's fields are JSON editors.
  const directorFields = Object.fromEntries(fields.director.fields().map((f) => [f.name, f.descriptor]));
  assert.equal(directorFields.name.kind, "json");
  assert.equal(directorFields.name.typeName, "String_Filter");
});

test("controls parse their text into JSON values, and back", () => {
  const d = (widget, required = false) => ({ widget, required });
  assert.deepEqual(parseControl(d("int"), "42"), { value: 42 });
  assert.match(parseControl(d("int"), "4.5").error, /not an integer/);
  assert.match(parseControl(d("int"), "3000000000").error, /32 bits/);
  assert.deepEqual(parseControl(d("int"), ""), { value: undefined });
  assert.deepEqual(parseControl(d("float"), "2.5"), { value: 2.5 });
  assert.deepEqual(parseControl(d("int64"), "9007199254740993"), { value: "9007199254740993" });
  assert.match(parseControl(d("int64"), "99999999999999999999").error, /Int64/);
  assert.deepEqual(parseControl(d("checkbox"), true), { value: true });
  assert.deepEqual(parseControl(d("date"), "1977-05-25"), { value: "1977-05-25" });
  assert.deepEqual(parseControl(d("json"), '{"oscars": 6}'), { value: { oscars: 6 } });
  assert.match(parseControl(d("json"), "{oscars}").error, /not JSON/);
  assert.deepEqual(parseControl(d("text"), ""), { value: undefined });
  assert.deepEqual(parseControl(d("text", true), ""), { value: "" });
  assert.deepEqual(parseControl(d("select"), "DESC"), { value: "DESC" });
  assert.equal(controlText(d("json"), { a: [1] }), '{"a":[1]}');
  assert.equal(controlText(d("int"), 7), "7");
  assert.equal(controlText(d("checkbox"), undefined), false);
  assert.equal(controlText(d("text"), null), "");
});

test("dates accept a timestamp's time part and keep the date as written, as the server does", () => {
  const d = { widget: "date", required: false };
  for (const [text, date] of [
    ["2024-05-01", "2024-05-01"],
    ["2024-05-01T00:00:00Z", "2024-05-01"],
    ["2024-05-01T23:30:00-05:00", "2024-05-01"],
    ["2024-05-01T00:30:00+01:00", "2024-05-01"],
    ["2024-05-01T12:00:00.123456Z", "2024-05-01"],
    ["2024-05-01t10:00:00z", "2024-05-01"],
    ["2024-02-29T10:00:00Z", "2024-02-29"],
    [" 2024-05-01 ", "2024-05-01"],
  ]) {
    assert.deepEqual(parseControl(d, text), { value: date }, text);
    assert.equal(dateInputToDate(text.trim()), date, text);
  }
  for (const text of [
    "2024-02-30",
    "2023-02-29",
    "2024-13-01",
    "2024-02-30T10:00:00Z",
    "2024-05-01T25:00:00Z",
    "2024-05-01T10:60:00Z",
    "2024-05-01T10:00:00",
    "2024-05-01T",
    "2024-05-01T10:00:00+0100",
    "2024-05-01T10:00:00+24:00",
    "2024-05-01T10:00:00.Z",
    "2024-05-01T10:00:00.1234567890Z",
    "yesterday",
  ]) {
    assert.match(parseControl(d, text).error, /is not a date/, text);
    assert.equal(dateInputToDate(text), null, text);
  }
  assert.equal(controlText(d, "2024-05-01T23:30:00-05:00"), "2024-05-01");
  assert.equal(controlText(d, "1977-05-25"), "1977-05-25");
});

test("datetime-local values become RFC 3339 UTC and come back", () => {
  const iso = localDateTimeToRFC3339("2026-12-02T09:30");
  const expected = new Date(2026, 11, 2, 9, 30, 0).toISOString();
  assert.equal(iso, expected);
  assert.match(iso, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  assert.equal(rfc3339ToLocalDateTime(iso), "2026-12-02T09:30:00");
  assert.equal(localDateTimeToRFC3339("2026-12-02T09:30:15"), new Date(2026, 11, 2, 9, 30, 15).toISOString());
  assert.equal(localDateTimeToRFC3339("yesterday"), null);
  assert.equal(rfc3339ToLocalDateTime("nope"), null);
  assert.deepEqual(parseControl({ widget: "datetime" }, "2026-12-02T09:30"), { value: expected });
  assert.equal(controlText({ widget: "datetime" }, expected), "2026-12-02T09:30:00");
});

test("lists grow and shrink, and empty optional objects are not sent", () => {
  const model = buildFormModel(
    [
      { name: "tags", type: "[String!]", default: null },
      { name: "where", type: "Movie_Filter", default: null },
      { name: "key", type: "Movie_Key!", default: null },
    ],
    introspection,
  );
  const values = { tags: [] };
  values.tags.push(newItemValue(model[0].descriptor.item));
  setPath(values, ["tags", 0], "space");
  values.tags.push(newItemValue(model[0].descriptor.item));
  setPath(values, ["where", "title"], {});
  setPath(values, ["key"], {});
  assert.deepEqual(variablesToSend(model, values), { tags: ["space", null], key: {} });
  setPath(values, ["where", "title", "eq"], "Alien");
  assert.deepEqual(variablesToSend(model, values).where, { title: { eq: "Alien" } });
  setPath(values, ["tags", 1], undefined);
  assert.deepEqual(values.tags, ["space", null]);
  setPath(values, ["where"], undefined);
  assert.equal("where" in values, false);
});

test("the JSON editor's text must be an object", () => {
  assert.deepEqual(parseVariablesText(""), { ok: true, value: {} });
  assert.deepEqual(parseVariablesText('{"id": "x"}'), { ok: true, value: { id: "x" } });
  assert.equal(parseVariablesText("[1]").ok, false);
  assert.equal(parseVariablesText("{").ok, false);
});

test("defaults given as GraphQL text (as the model sends them) or JSON become JSON values", () => {
  assert.deepEqual(parseGraphQLValue('{a: [ASC, DESC], b: "x\\"y", c: -1.5e2, d: null, e: true}'), {
    ok: true,
    value: { a: ["ASC", "DESC"], b: 'x"y', c: -150, d: null, e: true },
  });
  assert.equal(parseGraphQLValue("[1, 2").ok, false);
  assert.equal(parseGraphQLValue("1 2").ok, false);
  const model = buildFormModel(
    [
      { name: "excludedGenres", type: "[String!]", default: "[]" },
      { name: "limit", type: "Int", default: "20" },
      { name: "offset", type: "Int", default: 0 },
      { name: "code", type: "String", default: "20" },
      { name: "order", type: "OrderDirection", default: "DESC" },
      { name: "title", type: "String", default: '"Alien"' },
    ],
    introspection,
  );
  assert.deepEqual(initialValues(model), { excludedGenres: [], limit: 20, offset: 0, code: "20", order: "DESC", title: "Alien" });
  assert.equal(defaultValue(null, null), undefined);
});

test("lists of input objects and of enums describe their items", () => {
  const [orderBy, genres] = buildFormModel(
    [
      { name: "orderBy", type: "[Movie_Order!]", default: null },
      { name: "ratios", type: "[AspectRatio!]!", default: null },
    ],
    introspection,
  );
  assert.equal(orderBy.descriptor.item.kind, "object");
  assert.equal(orderBy.descriptor.item.typeName, "Movie_Order");
  const rating = orderBy.descriptor.item.fields().find((f) => f.name === "rating");
  assert.deepEqual([rating.descriptor.kind, rating.descriptor.options], ["enum", ["ASC", "DESC"]]);
  assert.deepEqual(newItemValue(orderBy.descriptor.item), {});
  assert.equal(genres.descriptor.required, true);
  assert.equal(genres.descriptor.item.widget, "select");
  const values = { orderBy: [{}, { rating: "DESC" }] };
  assert.deepEqual(variablesToSend([orderBy, genres], values), { orderBy: [{}, { rating: "DESC" }] });
  assert.deepEqual(missingRequired([orderBy, genres], values), ["ratios"]);
});
