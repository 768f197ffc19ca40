import { test } from "node:test";
import assert from "node:assert/strict";
import { createHistory, entryTitle, historyLimit } from "../Console/history.js";

function memoryStorage() {
  const map = new Map();
  return {
    getItem: (key) => (map.has(key) ? map.get(key) : null),
    setItem: (key, value) => map.set(key, String(value)),
    map,
  };
}

test("keeps documents newest first", () => {
  const history = createHistory(memoryStorage());
  history.add("{ movies { id } }");
  history.add("query Two { people { name } }", '{"a": 1}');
  const entries = history.list();
  assert.deepEqual(
    entries.map((e) => e.query),
    ["query Two { people { name } }", "{ movies { id } }"],
  );
  assert.equal(entries[0].variables, '{"a": 1}');
});

test("re-running a document moves it to the front instead of duplicating it", () => {
  const history = createHistory(memoryStorage());
  history.add("{ a }");
  history.add("{ b }");
  history.add("{ a }\n", "{}");
  assert.deepEqual(
    history.list().map((e) => e.query),
    ["{ a }\n", "{ b }"],
  );
});

test("keeps at most 50 documents", () => {
  const history = createHistory(memoryStorage());
  for (let i = 0; i < 60; i++) history.add(`{ f${i} }`);
  const entries = history.list();
  assert.equal(historyLimit, 50);
  assert.equal(entries.length, 50);
  assert.equal(entries[0].query, "{ f59 }");
  assert.equal(entries[49].query, "{ f10 }");
});

test("survives a new history over the same storage, and ignores corrupt or blank input", () => {
  const storage = memoryStorage();
  createHistory(storage).add("{ kept }");
  assert.deepEqual(createHistory(storage).list().map((e) => e.query), ["{ kept }"]);
  createHistory(storage).add("   ");
  assert.equal(createHistory(storage).list().length, 1);
  storage.setItem("dataconnect-console.graphql-history", "not json");
  assert.deepEqual(createHistory(storage).list(), []);
  const throwing = { getItem: () => null, setItem: () => { throw new Error("quota"); } };
  assert.doesNotThrow(() => createHistory(throwing).add("{ x }"));
});

test("titles name the operation or show the first line", () => {
  assert.equal(entryTitle({ query: "# comment\nquery listMovies { movies { id } }" }), "query listMovies");
  assert.equal(entryTitle({ query: "\n  {\n movies { id }\n}" }), "{ movies { id } }");
  assert.equal(entryTitle({ query: `{ ${"x ".repeat(40)}}` }).length, 60);
});
