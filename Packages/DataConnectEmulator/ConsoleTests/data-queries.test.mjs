import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PAGE_SIZE, buildDelete, buildInsert, buildListQuery, buildUpdate, cellText, columnFilter, editorFields,
  errorMessages, findTable, inputToValue, isSortable, isWritable, localInputToTimestamp, pageOf, parseTypeRef,
  rowData, rowKey, timestampToLocalInput, valueToInput, whereFor,
} from "../Console/data-queries.js";
import { moviesModel } from "./data-queries.fixture.mjs";

const movie = findTable(moviesModel, "Movie");
const metadata = findTable(moviesModel, "MovieMetadata");
const movieActor = findTable(moviesModel, "MovieActor");
const view = findTable(moviesModel, "MovieSummary");

test("parseTypeRef reads lists and non-null markers", () => {
  assert.deepEqual(parseTypeRef("[String!]!"), { base: "String", list: true, nonNull: true });
  assert.deepEqual(parseTypeRef("Int"), { base: "Int", list: false, nonNull: false });
});

test("the list query selects every column, asks one row more than a page, and orders by the key", () => {
  const { query, variables, operationName } = buildListQuery(movie, {}, moviesModel);
  assert.equal(operationName, "ConsoleListRows");
  assert.equal(
    query,
    "query ConsoleListRows($where: Movie_Filter, $orderBy: [Movie_Order!], $offset: Int, $limit: Int) {\n" +
      "  rows: movies(where: $where, orderBy: $orderBy, offset: $offset, limit: $limit) {\n" +
      movie.columns.map((c) => `    ${c.field}\n`).join("") +
      "  }\n}\n",
  );
  assert.deepEqual(variables, { offset: 0, limit: PAGE_SIZE + 1, orderBy: [{ id: "ASC" }] });
});

test("the list query orders by every key field of a composite key, and views get no default order", () => {
  assert.deepEqual(buildListQuery(movieActor).variables.orderBy, [{ movieId: "ASC" }, { actorId: "ASC" }]);
  assert.equal("orderBy" in buildListQuery(view).variables, false);
});

test("sort, offset and filters become variables, never text of the document", () => {
  const state = {
    offset: 40,
    sort: { field: "releaseYear", direction: "desc" },
    filters: { title: "  Matrix ", releaseYear: "1999", isClassic: "true", aspectratio: "widescreen", tags: "space", genre: "" },
  };
  const { query, variables } = buildListQuery(movie, state, moviesModel);
  assert.equal(query.includes("Matrix"), false);
  assert.equal(query.includes("1999"), false);
  assert.deepEqual(variables, {
    offset: 40,
    limit: 21,
    orderBy: [{ releaseYear: "DESC" }],
    where: {
      title: { contains: "Matrix" },
      releaseYear: { eq: 1999 },
      aspectratio: { eq: "WIDESCREEN" },
      tags: { includes: "space" },
      isClassic: { eq: true },
    },
  });
});

test("filters read text as the column's type and refuse what is not", () => {
  const byField = Object.fromEntries(metadata.columns.map((c) => [c.field, c]));
  assert.deepEqual(columnFilter(byField.budget, "200000000", moviesModel), { eq: "200000000" });
  assert.deepEqual(columnFilter(byField.durationHours, "2.5", moviesModel), { eq: 2.5 });
  assert.deepEqual(columnFilter(byField.extras, '{"oscars": 11}', moviesModel), { eq: { oscars: 11 } });
  assert.equal(columnFilter(byField.language, "   ", moviesModel), null);
  assert.throws(() => columnFilter(byField.budget, "lots", moviesModel), /budget: "lots" is not an Int64/);
  assert.throws(() => whereFor(movie, { releaseYear: "1999.5" }, moviesModel), /releaseYear/);
  assert.equal(whereFor(movie, {}, moviesModel), null);
});

test("a page keeps 20 rows and knows about the next one", () => {
  const rows = Array.from({ length: 21 }, (_, i) => ({ i }));
  const first = pageOf(rows, 0);
  assert.equal(first.rows.length, 20);
  assert.equal(first.hasNext, true);
  assert.equal(first.hasPrevious, false);
  assert.equal(first.info, "rows 1–20");
  const last = pageOf(rows.slice(0, 5), 20);
  assert.deepEqual([last.rows.length, last.hasNext, last.hasPrevious, last.info], [5, false, true, "rows 21–25"]);
  assert.equal(pageOf([], 0).info, "no rows");
});

test("insert, update and delete pass data and key as variables", () => {
  assert.deepEqual(buildInsert(movie, { title: "Heat" }), {
    query: "mutation ConsoleInsertRow($data: Movie_Data!) {\n  movie_insert(data: $data)\n}\n",
    variables: { data: { title: "Heat" } },
    operationName: "ConsoleInsertRow",
  });
  const key = rowKey(movieActor, { movieId: "m1", actorId: "a1", role: "main" });
  assert.deepEqual(key, { movieId: "m1", actorId: "a1" });
  assert.deepEqual(buildUpdate(movieActor, key, { role: "supporting" }), {
    query:
      "mutation ConsoleUpdateRow($key: MovieActor_Key!, $data: MovieActor_Data!) {\n" +
      "  movieActor_update(key: $key, data: $data)\n}\n",
    variables: { key: { movieId: "m1", actorId: "a1" }, data: { role: "supporting" } },
    operationName: "ConsoleUpdateRow",
  });
  assert.deepEqual(buildDelete(movie, { id: "x" }), {
    query: "mutation ConsoleDeleteRow($key: Movie_Key!) {\n  movie_delete(key: $key)\n}\n",
    variables: { key: { id: "x" } },
    operationName: "ConsoleDeleteRow",
  });
  assert.throws(() => rowKey(movie, { title: "no id" }), /no id/);
});

test("names that are not GraphQL names are refused before they reach a document", () => {
  const hostile = { ...movie, columns: [{ field: "id } evil {", type: "String" }] };
  assert.throws(() => buildListQuery(hostile), /not a GraphQL name/);
});

test("views are read-only and lists or JSON columns are not sortable", () => {
  assert.equal(isWritable(movie), true);
  assert.equal(isWritable(view), false);
  const byField = Object.fromEntries(movie.columns.map((c) => [c.field, c]));
  assert.equal(isSortable(byField.title), true);
  assert.equal(isSortable(byField.tags), false);
  assert.equal(isSortable(metadata.columns.find((c) => c.field === "extras")), false);
});

test("the editor picks an input for each column type", () => {
  const fields = Object.fromEntries(
    [...editorFields(movie, moviesModel), ...editorFields(metadata, moviesModel)].map((f) => [f.field, f]),
  );
  assert.equal(fields.releaseYear.input, "int");
  assert.equal(fields.durationHours.input, "float");
  assert.equal(fields.budget.input, "int64");
  assert.equal(fields.isClassic.input, "checkbox");
  assert.equal(fields.releaseDate.input, "date");
  assert.equal(fields.createdAt.input, "datetime");
  assert.equal(fields.aspectratio.input, "select");
  assert.deepEqual(fields.aspectratio.options, ["ACADEMY", "WIDESCREEN", "ANAMORPHIC"]);
  assert.equal(fields.tags.input, "json");
  assert.equal(fields.extras.input, "json");
  assert.equal(fields.title.input, "text");
  assert.equal(fields.id.optional, true);
  assert.equal(fields.title.optional, false);
  assert.equal(fields.id.readOnly, false);
  assert.equal(editorFields(movie, moviesModel, "update").find((f) => f.field === "id").readOnly, true);
});

test("timestamps convert between RFC 3339 UTC and the local datetime-local value", () => {
  const local = new Date(2024, 4, 1, 14, 0, 23);
  const iso = local.toISOString().replace(".000Z", "Z");
  assert.equal(timestampToLocalInput(iso), "2024-05-01T14:00:23");
  assert.equal(localInputToTimestamp("2024-05-01T14:00:23"), iso);
  assert.equal(localInputToTimestamp("2024-05-01T14:00"), new Date(2024, 4, 1, 14, 0).toISOString().replace(".000Z", "Z"));
  assert.equal(localInputToTimestamp("yesterday"), null);
  assert.equal(timestampToLocalInput(null), "");
});

test("inputs read back as typed values, with errors for what does not parse", () => {
  const fields = Object.fromEntries(editorFields(metadata, moviesModel).map((f) => [f.field, f]));
  assert.deepEqual(inputToValue(fields.durationHours, "2.5"), { value: 2.5 });
  assert.deepEqual(inputToValue(fields.budget, "12000000000000000"), { value: "12000000000000000" });
  assert.deepEqual(inputToValue(fields.extras, '{"a": [1]}'), { value: { a: [1] } });
  assert.match(inputToValue(fields.extras, "{").error, /^extras: not JSON/);
  assert.match(inputToValue(fields.budget, "1e3").error, /not an Int64/);
  assert.deepEqual(inputToValue(fields.language, ""), { value: null });
  assert.equal(valueToInput(fields.extras, { oscars: 11 }), '{"oscars":11}');
  assert.equal(valueToInput(fields.releaseDate, "1997-12-19"), "1997-12-19");
});

/** The editor's inputs as they start for `row`: each value as its input shows it, unchanged. */
function inputsFor(fields, row) {
  return Object.fromEntries(
    fields.map((f) => {
      const shown = valueToInput(f, row[f.field] ?? null);
      return [f.field, { value: shown, initial: shown }];
    }),
  );
}

test("insert leaves empty and untouched optional inputs to the server", () => {
  const fields = editorFields(movie, moviesModel, "insert");
  const inputs = inputsFor(fields, {});
  inputs.title.value = "Heat";
  inputs.releaseYear.value = "1995";
  inputs.tags.value = '["heist"]';
  const { data, errors } = rowData(fields, inputs, "insert");
  assert.deepEqual(errors, []);
  assert.deepEqual(data, { title: "Heat", releaseYear: 1995, tags: ["heist"] });
  inputs.isClassic = { value: false, initial: false, touched: true };
  assert.deepEqual(rowData(fields, inputs, "insert").data, { title: "Heat", releaseYear: 1995, tags: ["heist"], isClassic: false });
});

test("update sends only the changed fields, never the key, and null for a cleared one", () => {
  const row = {
    id: "k1",
    title: "Heat",
    releaseYear: 1995,
    genre: "Crime",
    isClassic: false,
    tags: ["heist"],
    createdAt: "2024-05-01T12:00:23Z",
  };
  const fields = editorFields(movie, moviesModel, "update");
  const inputs = inputsFor(fields, row);
  assert.deepEqual(rowData(fields, inputs, "update"), { data: {}, errors: [] });
  inputs.id.value = "other";
  inputs.genre.value = "";
  inputs.isClassic.value = true;
  inputs.releaseYear.value = "nineteen";
  const { data, errors } = rowData(fields, inputs, "update");
  assert.deepEqual(data, { genre: null, isClassic: true });
  assert.deepEqual(errors, ['releaseYear: "nineteen" is not an Int']);
});

test("cells show JSON for objects, nothing for null", () => {
  assert.equal(cellText(null), "");
  assert.equal(cellText(["a", "b"]), '["a","b"]');
  assert.equal(cellText(false), "false");
  assert.equal(cellText(3.5), "3.5");
});

test("API errors are shown with the API's own messages", () => {
  assert.deepEqual(errorMessages({ ok: false, status: 400, body: { errors: [{ message: "Movie.title is required" }] } }), [
    "Movie.title is required",
  ]);
  assert.deepEqual(errorMessages({ ok: false, status: 502, body: null, text: "" }), ["HTTP 502"]);
  assert.deepEqual(errorMessages({ ok: true, status: 200, body: { data: {}, errors: [] } }), []);
});
