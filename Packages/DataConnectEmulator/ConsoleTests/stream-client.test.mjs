import { test } from "node:test";
import assert from "node:assert/strict";
import { StreamClient, parseFrame, reconnectDelay, streamPath, streamURL } from "../Console/stream-client.js";

const NAME = "projects/p/locations/l/services/movies/connectors/movies";

/** A scripted world: fake sockets the test opens, feeds and closes, and fake timers it fires. */
function harness() {
  const sockets = [];
  const timers = [];
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.sent = [];
      this.closed = false;
      sockets.push(this);
    }
    send(text) {
      if (this.readyState !== 1) throw new Error("not open");
      this.sent.push(JSON.parse(text));
    }
    close() {
      this.closed = true;
      this.readyState = 3;
    }
    // Test controls.
    open() {
      this.readyState = 1;
      this.onopen && this.onopen({});
    }
    receive(object) {
      this.onmessage && this.onmessage({ data: JSON.stringify(object) });
    }
    drop() {
      this.readyState = 3;
      this.onclose && this.onclose({ code: 1006 });
    }
  }
  const errors = [];
  const client = new StreamClient({
    url: "ws://127.0.0.1:9399/ws/x",
    WebSocket: FakeSocket,
    setTimeout: (fn, ms) => {
      timers.push({ fn, ms, fired: false });
      return timers.length - 1;
    },
    clearTimeout: (id) => {
      if (timers[id]) timers[id].fired = true;
    },
    onError: (error) => errors.push(error),
  });
  function fireTimer() {
    const timer = timers.find((t) => !t.fired);
    assert.ok(timer, "a timer is pending");
    timer.fired = true;
    timer.fn();
    return timer.ms;
  }
  return { client, sockets, timers, errors, fireTimer };
}

function recorder() {
  const results = [];
  const states = [];
  const cancelled = [];
  return {
    results,
    states,
    cancelled,
    listener: {
      onResult: (r) => results.push(r),
      onState: (s) => states.push(s),
      onCancelled: (r) => cancelled.push(r),
    },
  };
}

test("paths and URLs follow the JS SDK", () => {
  const model = { project: "demo", location: "us-east1", serviceId: "movies" };
  assert.equal(
    streamPath(model),
    "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/demo/locations/us-east1/services/movies",
  );
  assert.equal(
    streamURL(model, { protocol: "http:", host: "127.0.0.1:9399" }),
    "ws://127.0.0.1:9399/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/demo/locations/us-east1/services/movies",
  );
  assert.match(streamURL(model, { protocol: "https:", host: "h" }), /^wss:\/\/h\//);
});

test("subscribes once the socket opens, with request ids, the connector name and no headers when signed out", () => {
  const { client, sockets } = harness();
  const rec = recorder();
  const handle = client.subscribe({ name: NAME, operationName: "listMovies", variables: { limit: 2 } }, rec.listener);
  assert.equal(sockets.length, 1);
  assert.equal(handle.requestId, "1");
  assert.deepEqual(sockets[0].sent, []);
  sockets[0].open();
  assert.deepEqual(sockets[0].sent, [
    { requestId: "1", name: NAME, subscribe: { operationName: "listMovies", variables: { limit: 2 } } },
  ]);
  const second = client.subscribe({ name: NAME, operationName: "getCurrentUser", token: "tok" }, {});
  assert.equal(sockets.length, 1, "one socket per page");
  assert.deepEqual(sockets[0].sent[1], {
    requestId: "2",
    name: NAME,
    headers: { "X-Firebase-Auth-Token": "tok" },
    subscribe: { operationName: "getCurrentUser", variables: {} },
  });
  assert.equal(second.requestId, "2");
  assert.deepEqual(rec.states, ["connecting", "open"]);
});

test("results update in place and keep the last data when a response omits it", () => {
  const { client, sockets } = harness();
  const rec = recorder();
  client.subscribe({ name: NAME, operationName: "listMovies" }, rec.listener);
  sockets[0].open();
  sockets[0].receive({ result: { requestId: "1", data: { movies: [{ id: "a" }] }, dataEtag: "e1" } });
  sockets[0].receive({ result: { requestId: "1", dataEtag: "e1" } });
  sockets[0].receive({ result: { requestId: "9", data: { other: true } } });
  sockets[0].receive({
    result: { requestId: "1", data: { movies: [] }, dataEtag: "e2", errors: [{ message: "partial" }] },
  });
  assert.deepEqual(
    rec.results.map((r) => [r.updates, r.data, r.dataEtag, r.errors.length]),
    [
      [1, { movies: [{ id: "a" }] }, "e1", 0],
      [2, { movies: [{ id: "a" }] }, "e1", 0],
      [3, { movies: [] }, "e2", 1],
    ],
  );
});

test("frames without the result wrapper are rejected; binary frames hold the bare response", () => {
  const { client, sockets, errors } = harness();
  const rec = recorder();
  client.subscribe({ name: NAME, operationName: "listMovies" }, rec.listener);
  sockets[0].open();
  sockets[0].receive({ requestId: "1", data: { x: 1 } });
  sockets[0].onmessage({ data: "not json" });
  assert.equal(rec.results.length, 0);
  assert.equal(errors.length, 2);
  sockets[0].onmessage({ data: new TextEncoder().encode('{"requestId":"1","data":{"x":2}}').buffer });
  assert.deepEqual(rec.results[0].data, { x: 2 });
  assert.throws(() => parseFrame('{"other": 1}'), /result/);
});

test("cancel sends cancel and closes the idle socket; a new subscription opens a new one", () => {
  const { client, sockets } = harness();
  const a = client.subscribe({ name: NAME, operationName: "listMovies" }, {});
  const b = client.subscribe({ name: NAME, operationName: "listActors" }, {});
  sockets[0].open();
  a.cancel();
  assert.deepEqual(sockets[0].sent.at(-1), { requestId: "1", cancel: {} });
  assert.equal(sockets[0].closed, false);
  b.cancel();
  assert.deepEqual(sockets[0].sent.at(-1), { requestId: "2", cancel: {} });
  assert.equal(sockets[0].closed, true);
  b.cancel();
  assert.equal(sockets[0].sent.length, 4, "cancelling twice sends nothing more");
  client.subscribe({ name: NAME, operationName: "listMovies" }, {});
  assert.equal(sockets.length, 2);
});

test("reconnects with backoff after the emulator restarts and subscribes again with the last etag", () => {
  const { client, sockets, fireTimer } = harness();
  const rec = recorder();
  client.subscribe({ name: NAME, operationName: "listMovies", token: "t" }, rec.listener);
  sockets[0].open();
  sockets[0].receive({ result: { requestId: "1", data: { movies: [1] }, dataEtag: "e1" } });
  sockets[0].drop();
  assert.equal(fireTimer(), 250);
  assert.equal(sockets.length, 2);
  sockets[1].drop();
  assert.equal(fireTimer(), 500);
  sockets[2].drop();
  assert.equal(fireTimer(), 1000);
  sockets[3].open();
  assert.deepEqual(sockets[3].sent, [
    {
      requestId: "1",
      name: NAME,
      headers: { "X-Firebase-Auth-Token": "t" },
      subscribe: { operationName: "listMovies", variables: {} },
      dataEtag: "e1",
    },
  ]);
  sockets[3].receive({ result: { requestId: "1", dataEtag: "e1" } });
  assert.deepEqual(rec.results.at(-1).data, { movies: [1] });
  assert.equal(rec.results.at(-1).updates, 2);
  sockets[3].drop();
  assert.equal(fireTimer(), 250, "a successful open resets the backoff");
  assert.deepEqual(rec.states, ["connecting", "open", "reconnecting", "open", "reconnecting"]);
});

test("backoff doubles from 250 ms to at most 5 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 40].map((n) => reconnectDelay(n)), [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test("a cancelled response ends the subscription after a grace while the socket stays open", () => {
  const { client, sockets, timers, fireTimer } = harness();
  const rec = recorder();
  client.subscribe({ name: NAME, operationName: "listMovies" }, rec.listener);
  sockets[0].open();
  sockets[0].receive({ result: { requestId: "1", data: { movies: [1] } } });
  sockets[0].receive({
    result: { requestId: "1", data: null, cancelled: true, errors: [{ message: "the operation changed", extensions: { code: "CANCELLED" } }] },
  });
  assert.deepEqual(rec.results.at(-1).data, { movies: [1] }, "a cancellation's null data does not replace the last data");
  assert.equal(rec.cancelled.length, 0);
  assert.equal(fireTimer(), 1500);
  assert.equal(rec.cancelled.length, 1);
  assert.equal(sockets[0].closed, true);
  assert.equal(timers.filter((t) => !t.fired).length, 0, "no reconnection without subscriptions");
});

test("closing while a reconnection is pending stops it", () => {
  const { client, sockets, timers } = harness();
  client.subscribe({ name: NAME, operationName: "listMovies" }, {});
  sockets[0].open();
  sockets[0].drop();
  assert.equal(timers.length, 1);
  client.close();
  assert.equal(timers[0].fired, true);
  assert.equal(client.state, "closed");
});

test("a stopping emulator's cancellation (then the socket closes) keeps the subscription for the reconnection", () => {
  const { client, sockets, fireTimer } = harness();
  const rec = recorder();
  client.subscribe({ name: NAME, operationName: "listMovies" }, rec.listener);
  sockets[0].open();
  sockets[0].receive({ result: { requestId: "1", data: { movies: [1] }, dataEtag: "e1" } });
  sockets[0].receive({
    result: {
      requestId: "1",
      cancelled: true,
      data: null,
      errors: [{ message: "the emulator is stopping", extensions: { code: "CANCELLED" } }],
    },
  });
  assert.equal(rec.cancelled.length, 0);
  assert.equal(rec.results.at(-1).errors[0].extensions.code, "CANCELLED");
  assert.deepEqual(rec.results.at(-1).data, { movies: [1] });
  sockets[0].drop();
  assert.equal(fireTimer(), 250, "the grace timer was cleared; the next timer reconnects");
  sockets[1].open();
  assert.deepEqual(sockets[1].sent, [
    { requestId: "1", name: NAME, subscribe: { operationName: "listMovies", variables: {} }, dataEtag: "e1" },
  ]);
  assert.equal(rec.cancelled.length, 0);
});

test("a connection signs in with headers once per token, and a signed-out subscription gets a new connection", () => {
  const { client, sockets } = harness();
  const a = client.subscribe({ name: NAME, operationName: "getCurrentUser", token: "alice" }, {});
  sockets[0].open();
  assert.deepEqual(sockets[0].sent[0].headers, { "X-Firebase-Auth-Token": "alice" });
  client.subscribe({ name: NAME, operationName: "listMyReviews", token: "alice" }, {});
  assert.equal(sockets[0].sent[1].headers, undefined, "the connection already holds alice's token");
  a.cancel();
  client.subscribe({ name: NAME, operationName: "listMovies" }, {});
  assert.equal(sockets[0].closed, true);
  assert.equal(sockets.length, 2);
  sockets[1].open();
  assert.deepEqual(
    sockets[1].sent.map((m) => [m.requestId, m.subscribe.operationName, m.headers ? m.headers["X-Firebase-Auth-Token"] : null]),
    [
      ["3", "listMovies", null],
      ["2", "listMyReviews", "alice"],
    ],
  );
});
