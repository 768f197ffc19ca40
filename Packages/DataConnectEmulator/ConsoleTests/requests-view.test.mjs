import { test } from "node:test";
import assert from "node:assert/strict";
import { REQUEST_LIMIT, matchesFilter, mergeRequests, protocolText, statusClass } from "../Console/requests-view.js";

function request(id, extra = {}) {
  return {
    id,
    time: "2026-12-02T08:01:02.345Z",
    method: "executeQuery",
    connector: "movies",
    operation: "listMovies",
    caller: "unauthenticated",
    status: 200,
    code: "OK",
    durationMs: 1.2,
    ...extra,
  };
}

test("requests are kept newest first, without duplicates, at most 200", () => {
  // The GET answers oldest first; events may repeat a request the GET already held.
  const fromGet = [1, 2, 3].map((id) => request(id));
  let list = mergeRequests([], fromGet);
  assert.deepEqual(list.map((r) => r.id), [3, 2, 1]);
  list = mergeRequests(list, [request(3), request(4)]);
  assert.deepEqual(list.map((r) => r.id), [4, 3, 2, 1]);
  for (let id = 5; id <= 250; id += 1) list = mergeRequests(list, [request(id)]);
  assert.equal(list.length, REQUEST_LIMIT);
  assert.equal(list[0].id, 250);
  assert.equal(list.at(-1).id, 51);
});

test("the filter matches the operation, connector or method, in any case", () => {
  const r = request(1, { operation: "listMoviesByGenre" });
  assert.equal(matchesFilter(r, ""), true);
  assert.equal(matchesFilter(r, "  BYGENRE "), true);
  assert.equal(matchesFilter(r, "executequery"), true);
  assert.equal(matchesFilter(r, "createMovie"), false);
  assert.equal(matchesFilter(request(2, { operation: null, connector: null, method: "clear" }), "movie"), false);
});

test("statuses are coloured by class", () => {
  assert.deepEqual([200, 204, 400, 403, 404, 500, 504].map(statusClass), [
    "status-ok", "status-ok", "status-client", "status-client", "status-client", "status-server", "status-server",
  ]);
});

test("the Protocol column names gRPC calls and REST requests", () => {
  assert.equal(protocolText("grpc"), "gRPC");
  assert.equal(protocolText("http"), "HTTP");
  // records from an emulator older than the column read as REST
  assert.equal(protocolText(undefined), "HTTP");
  assert.equal(matchesFilter(request(3, { method: "ExecuteQuery", protocol: "grpc" }), "executequery"), true);
});
