import { test } from "node:test";
import assert from "node:assert/strict";
import { FEED_LIMIT, recordPush, recordedPushes, sortGroups } from "../Console/realtime-view.js";

test("the push feed keeps the newest first and at most 200", () => {
  for (let i = 0; i < 230; i += 1) {
    recordPush({ group: `g${i}`, connector: "movies", operation: "listMovies", subscribers: 1, time: "2026-12-02T08:00" });
  }
  const feed = recordedPushes();
  assert.equal(feed.length, FEED_LIMIT);
  assert.equal(feed[0].group, "g229");
  assert.equal(feed.at(-1).group, "g30");
});

test("groups are shown by connector, operation, then numeric id", () => {
  const groups = [
    { id: "g10", connector: "movies", operation: "listMovies" },
    { id: "g2", connector: "movies", operation: "listMovies" },
    { id: "g1", connector: "movies", operation: "getMovie" },
    { id: "g3", connector: "admin", operation: "zeta" },
  ];
  assert.deepEqual(sortGroups(groups).map((g) => g.id), ["g3", "g1", "g2", "g10"]);
  assert.deepEqual(sortGroups(null), []);
});
