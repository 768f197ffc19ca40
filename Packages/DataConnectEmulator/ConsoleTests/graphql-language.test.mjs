import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  checkDocument,
  complete,
  lineColumn,
  offsetOf,
  operationAt,
  tokenize,
} from "../Console/graphql-language.js";

const introspection = JSON.parse(readFileSync(new URL("./fixtures/movies-introspection.json", import.meta.url)));
const queries = readFileSync(new URL("../../../Backend/movies/connector/queries.gql", import.meta.url), "utf8");
const mutations = readFileSync(new URL("../../../Backend/movies/connector/mutations.gql", import.meta.url), "utf8");

/** Completes at the `|` of `marked` (the bar is removed). */
function at(marked) {
  const cursor = marked.indexOf("|");
  assert.ok(cursor >= 0, "the document marks the cursor with |");
  const source = marked.slice(0, cursor) + marked.slice(cursor + 1);
  return { ...complete(source, cursor, introspection), source, cursor };
}

function labels(result) {
  return result.items.map((item) => item.label);
}

function detail(result, label) {
  const item = result.items.find((i) => i.label === label);
  assert.ok(item, `${label} is offered (got ${labels(result).slice(0, 20).join(", ")})`);
  return item.detail;
}

test("tokens carry lines and columns; commas and comments are not significant", () => {
  const { tokens, error } = tokenize('query A {\r\n  movies(limit: 2, offset: -1.5e3) # note\n  { id } "s" }');
  assert.equal(error, null);
  const movies = tokens.find((t) => t.value === "movies");
  assert.deepEqual([movies.line, movies.column], [2, 3]);
  assert.equal(tokens.find((t) => t.kind === "float").value, "-1.5e3");
  assert.equal(tokens.filter((t) => t.kind === "comment").length, 1);
  assert.equal(tokens.filter((t) => t.value === ",").length, 0);
});

test("the movies connector's documents have no syntax errors", () => {
  const fragments = readFileSync(new URL("../../../Backend/movies/connector/fragments.gql", import.meta.url), "utf8");
  for (const text of [queries, mutations, fragments]) assert.deepEqual(checkDocument(text).errors, []);
  const operations = checkDocument(queries).operations;
  assert.equal(operations[0].name, "listMovies");
  assert.ok(operations.some((op) => op.name === "searchMovies" && op.kind === "query"));
});

test("syntax errors carry line and column", () => {
  assert.deepEqual(checkDocument("query {\n  movies { id }\n").errors, [
    { message: "Syntax Error: Expected Name, found <EOF>.", line: 3, column: 1, offset: 24 },
  ]);
  const [unexpected] = checkDocument("query {\n  movies(limit: ) { id }\n}").errors;
  assert.deepEqual([unexpected.message, unexpected.line, unexpected.column], ['Syntax Error: Unexpected ")".', 2, 17]);
  const [unterminated] = checkDocument('{ movies(where: {title: {eq: "Alien}}) { id } }').errors;
  assert.deepEqual([unterminated.message, unterminated.line], ["Syntax Error: Unterminated string.", 1]);
  const [stray] = checkDocument("{ movies { id } } }").errors;
  assert.deepEqual([stray.message, stray.column], ['Syntax Error: Unexpected "}".', 19]);
  const [character] = checkDocument("{ movies { id % } }").errors;
  assert.deepEqual([character.message, character.column], ['Syntax Error: Unexpected character: "%".', 15]);
  const [missingOn] = checkDocument("fragment F Movie { id }").errors;
  assert.deepEqual([missingOn.message, missingOn.column], ['Syntax Error: Expected "on", found Name "Movie".', 12]);
  const [variable] = checkDocument("query ($x: ) { movies { id } }").errors;
  assert.deepEqual([variable.message, variable.column], ['Syntax Error: Expected Name, found ")".', 12]);
  assert.deepEqual(checkDocument("   # only a comment\n").errors, []);
});

test("the operation to run is the one at the cursor", () => {
  const source = "query A { movies { id } }\n\nmutation B { movie_delete(id: \"x\") }";
  assert.equal(operationAt(source, 3).name, "A");
  assert.equal(operationAt(source, source.length - 2).name, "B");
  assert.equal(operationAt(source, 26).name, "A");
  assert.equal(operationAt("", 0), null);
});

test("line/column and offsets convert both ways", () => {
  const source = "a\nbc\r\nd";
  assert.deepEqual(lineColumn(source, 3), { line: 2, column: 2 });
  assert.equal(offsetOf(source, 2, 2), 3);
  assert.equal(offsetOf(source, 3, 1), 6);
});

test("top level offers operation keywords", () => {
  assert.deepEqual(labels(at("qu|")), ["query"]);
  assert.deepEqual(labels(at("|")), ["query", "mutation", "fragment"]);
  assert.deepEqual(labels(at("query A { movies { id } }\nm|")), ["mutation", "fragment"], "starting with m, then containing m");
});

test("root fields of Query and Mutation, with their types", () => {
  const query = at("query { mov| }");
  assert.deepEqual(labels(query).slice(0, 6), ["movie", "movies", "movieMetadata", "movieMetadatas", "movieActor", "movieActors"]);
  assert.equal(detail(query, "movies"), "[Movie!]!");
  const anonymous = at("{ |");
  assert.ok(labels(anonymous).includes("people"));
  const mutation = at("mutation { movie_|");
  assert.equal(detail(mutation, "movie_insert"), "Movie_KeyOutput!");
  assert.ok(!labels(mutation).includes("movies"));
});

test("nested fields follow the selection's type through aliases and relations", () => {
  const director = at('{ movie(id: "x") { title director { | } } }');
  assert.deepEqual(labels(director).filter((l) => !l.startsWith("_")).slice(0, 3), ["id", "name", "birthYear"]);
  assert.equal(detail(director, "name"), "String!");
  const aliased = at('{ m: movie(id: "x") { metadata: movieMetadata_on_movie { bud| } } }');
  assert.deepEqual(labels(aliased), ["budget", "budget_count", "budget_sum", "budget_avg", "budget_min", "budget_max"]);
  assert.equal(detail(aliased, "budget"), "Int64");
  const sibling = at('{ movies { id |} }');
  assert.ok(labels(sibling).includes("title"));
  assert.equal(detail(sibling, "__typename"), "String!");
});

test("completion inside a real query document (getMovieById in queries.gql)", () => {
  const marker = "    reviewStats: reviews_on_movie {\n      _count\n";
  const cursor = queries.indexOf(marker) + marker.length;
  const result = complete(queries, cursor, introspection);
  assert.ok(result.items.some((i) => i.label === "rating_avg"), "Review aggregate fields");
  assert.ok(result.items.some((i) => i.label === "text" && i.detail === "String"));
  const castMarker = "cast: actors_via_MovieActor(";
  const argumentCursor = queries.indexOf(castMarker) + castMarker.length;
  const args = complete(queries, argumentCursor, introspection);
  assert.ok(args.items.some((i) => i.label === "where"));
  assert.equal(args.from, argumentCursor, "replaces nothing before the cursor");
  assert.ok(args.items.some((i) => i.label === "limit"), "arguments after the cursor do not count as given");
});

test("fragments and inline fragments take their type condition", () => {
  const fragment = at("fragment F on Movie { dir| }");
  assert.deepEqual(labels(fragment).sort(), ["director", "directorId", "directorId_count"]);
  assert.equal(detail(fragment, "director"), "Person");
  const inline = at("{ movies { ... on Movie { tit| } } }");
  assert.deepEqual(labels(inline), ["title", "title_count"]);
  const spread = at("fragment Summary on Movie { id }\nquery { movies { ...| } }");
  assert.deepEqual(labels(spread), ["on", "Summary"]);
  const condition = at("{ movies { ... on Mo| } }");
  assert.deepEqual(labels(condition).slice(0, 3), ["Movie", "MovieMetadata", "MovieActor"]);
  assert.ok(!labels(condition).includes("Movie_Key"), "input types are not type conditions");
});

test("arguments of the current field and fields of input objects", () => {
  const args = at("{ movie(|) { id } }");
  assert.deepEqual(labels(args), ["id", "key", "first"]);
  assert.equal(detail(args, "key"), "Movie_Key");
  const remaining = at("{ movies(limit: 5, |) { id } }");
  assert.ok(!labels(remaining).includes("limit"));
  assert.ok(labels(remaining).includes("where"));
  const key = at("{ movie(key: {|}) { id } }");
  assert.deepEqual(labels(key), ["id", "id_expr"]);
  assert.equal(detail(key, "id"), "UUID");
  const nested = at('{ movies(where: {genre: {eq: "Drama"}, director: {n|}}) { id } }');
  assert.equal(labels(nested)[0], "name");
  assert.ok(!labels(nested).includes("genre"), "Person_Filter, not Movie_Filter");
  assert.equal(detail(nested, "name"), "String_Filter");
  const inList = at("{ movies(orderBy: [{rating: DESC}, {|}]) { id } }");
  assert.ok(labels(inList).includes("releaseYear"));
  assert.equal(detail(inList, "releaseYear"), "OrderDirection");
});

test("enum values, booleans and variables of the expected type", () => {
  const enumValue = at("mutation { movie_insert(data: {title: \"t\", aspectratio: W|}) }");
  assert.deepEqual(labels(enumValue), ["WIDESCREEN"]);
  const direction = at("query ($d: OrderDirection, $n: Int) { movies(orderBy: [{rating: |}]) { id } }");
  assert.deepEqual(labels(direction), ["ASC", "DESC", "$d"]);
  const bool = at("mutation { movie_insert(data: {title: \"t\", isClassic: |}) }");
  assert.deepEqual(labels(bool), ["true", "false"]);
  const variables = at("query Q($id: UUID!, $title: String) { movie(id: $|) { id } }");
  assert.deepEqual(labels(variables), ["$id"]);
  assert.equal(detail(variables, "$id"), "UUID!");
  assert.equal(variables.source.slice(variables.from, variables.to), "$");
  const partial = at("query Q($id: UUID!, $title: String) { movies(where: {title: {eq: $t|}}) { id } }");
  assert.deepEqual(labels(partial), ["$title"]);
  assert.equal(partial.source.slice(partial.from, partial.to), "$t");
  const listOfEnums = at("query { movies(where: {aspectratio: {in: [ACADEMY, |]}}) { id } }");
  assert.deepEqual(labels(listOfEnums), ["ACADEMY", "WIDESCREEN", "ANAMORPHIC"]);
});

test("variable definitions offer input types only", () => {
  const types = at("query ($key: Movie_K|) { movie(key: $key) { id } }");
  assert.ok(labels(types).includes("Movie_Key"));
  assert.ok(labels(types).every((l) => l.startsWith("Movie_K") || l.includes("Movie_K")));
  const all = labels(at("query ($x: |"));
  assert.ok(all.includes("String") && all.includes("AspectRatio") && all.includes("Movie_Filter"));
  assert.ok(!all.includes("Movie"));
});

test("nothing inside strings and comments; the partial word is replaced whole", () => {
  assert.deepEqual(labels(at('{ movies(where: {title: {eq: "ti|tle"}}) { id } }')), []);
  assert.deepEqual(labels(at("{ movies { # ti|\n id } }")), []);
  const middle = at("{ movies { tit|le } }");
  assert.deepEqual(labels(middle), ["title", "title_count"]);
  assert.equal(middle.source.slice(middle.from, middle.to), "title");
  assert.ok(labels(at("{ movies { DESCR| } }")).includes("description"), "case-insensitive");
  const contains = labels(at("{ movies { year| } }"));
  assert.ok(contains.includes("releaseYear"), "names containing the prefix follow");
});

test("directives after @", () => {
  const names = labels(at("query @|"));
  assert.ok(names.includes("auth") || names.includes("include"), names.join(","));
});

test("directive arguments and variable defaults", () => {
  const args = at("query ($show: Boolean!) { movies @include(|) { id } }");
  assert.deepEqual(labels(args), ["if"]);
  const value = at("query ($show: Boolean!) { movies @include(if: |) { id } }");
  assert.deepEqual(labels(value), ["true", "false", "$show"]);
  const auth = at("query Q @auth(level: |) { movies { id } }");
  assert.ok(labels(auth).includes("PUBLIC") && labels(auth).includes("USER"));
  const defaults = at("query ($d: OrderDirection = |) { movies { id } }");
  assert.deepEqual(labels(defaults), ["ASC", "DESC"], "constant values offer no variables");
});
