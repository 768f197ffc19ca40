import { test } from "node:test";
import assert from "node:assert/strict";
import { EventConnection, backoffDelay, eventsURL, parseFrame, prependCapped } from "../Console/events.js";

/** A socket double: records instances; the test fires open/message/close. */
class FakeSocket {
  static all = [];
  constructor(url) {
    this.url = url;
    this.closed = false;
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen && this.onopen({});
  }
  receive(data) {
    this.onmessage && this.onmessage({ data });
  }
  drop() {
    this.onerror && this.onerror({});
    this.onclose && this.onclose({});
  }
}

/** Timers the test runs by hand: records each delay. */
function fakeTimers() {
  const pending = [];
  return {
    pending,
    delays: [],
    setTimer(fn, ms) {
      this.delays.push(ms);
      const handle = { fn, ms, cancelled: false };
      pending.push(handle);
      return handle;
    },
    clearTimer(handle) {
      handle.cancelled = true;
    },
    runNext() {
      const handle = pending.shift();
      if (handle && !handle.cancelled) handle.fn();
    },
  };
}

function connect(recorded) {
  FakeSocket.all = [];
  const timers = fakeTimers();
  const connection = new EventConnection({
    url: "ws://127.0.0.1:9399/emulator/console/events",
    createSocket: (url) => new FakeSocket(url),
    onFrame: (frame) => recorded.push(["frame", frame.type]),
    onState: (state) => recorded.push(["state", state]),
    setTimer: (fn, ms) => timers.setTimer(fn, ms),
    clearTimer: (h) => timers.clearTimer(h),
  });
  return { connection, timers };
}

test("backoff doubles from 250 ms and stays at 5 s", () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5, 6, 50].map(backoffDelay), [250, 500, 1000, 2000, 4000, 5000, 5000, 5000]);
});

test("the socket URL follows the page's scheme and host", () => {
  assert.equal(eventsURL({ protocol: "http:", host: "127.0.0.1:9399" }), "ws://127.0.0.1:9399/emulator/console/events");
  assert.equal(eventsURL({ protocol: "https:", host: "x.test" }), "wss://x.test/emulator/console/events");
});

test("only JSON objects of a known type are frames", () => {
  assert.deepEqual(parseFrame('{"type":"reloaded"}'), { type: "reloaded" });
  assert.equal(parseFrame('{"type":"unknown"}'), null);
  assert.equal(parseFrame("not json"), null);
  assert.equal(parseFrame("[1]"), null);
  assert.equal(parseFrame(new ArrayBuffer(2)), null);
});

test("prependCapped keeps the newest first and at most the cap", () => {
  let list = [];
  for (let i = 0; i < 205; i += 1) list = prependCapped(list, i, 200);
  assert.equal(list.length, 200);
  assert.equal(list[0], 204);
  assert.equal(list[199], 5);
});

test("frames are delivered and a lost socket reconnects with growing delays, reset after an open", () => {
  const recorded = [];
  const { connection, timers } = connect(recorded);
  connection.start();
  FakeSocket.all[0].open();
  FakeSocket.all[0].receive('{"type":"hello","version":"1"}');
  FakeSocket.all[0].receive("garbage");
  FakeSocket.all[0].receive('{"type":"request","request":{"id":1}}');
  FakeSocket.all[0].drop();
  // The emulator stays down for three attempts.
  for (let i = 1; i <= 3; i += 1) {
    timers.runNext();
    FakeSocket.all[i].drop();
  }
  timers.runNext();
  FakeSocket.all[4].open();
  FakeSocket.all[4].receive('{"type":"reloaded"}');
  FakeSocket.all[4].drop();
  assert.deepEqual(timers.delays, [250, 500, 1000, 2000, 250]);
  assert.equal(FakeSocket.all.length, 5);
  assert.deepEqual(recorded, [
    ["state", "connected"],
    ["frame", "hello"],
    ["frame", "request"],
    ["state", "disconnected"],
    ["state", "connected"],
    ["frame", "reloaded"],
    ["state", "disconnected"],
  ]);
});

test("a first attempt that fails reports disconnected and keeps trying", () => {
  const recorded = [];
  const { connection, timers } = connect(recorded);
  connection.start();
  FakeSocket.all[0].drop();
  timers.runNext();
  FakeSocket.all[1].open();
  assert.deepEqual(recorded, [["state", "disconnected"], ["state", "connected"]]);
  assert.deepEqual(timers.delays, [250]);
});

test("stop closes the socket and cancels the pending reconnection", () => {
  const recorded = [];
  const { connection, timers } = connect(recorded);
  connection.start();
  FakeSocket.all[0].open();
  FakeSocket.all[0].drop();
  connection.stop();
  timers.runNext();
  assert.equal(FakeSocket.all.length, 1);
  connection.start();
  FakeSocket.all[1].open();
  connection.stop();
  assert.equal(FakeSocket.all[1].closed, true);
  FakeSocket.all[1].drop();
  assert.equal(timers.pending.length, 0);
});

test("events of a replaced socket are ignored", () => {
  const recorded = [];
  const { connection } = connect(recorded);
  connection.start();
  const old = FakeSocket.all[0];
  connection.stop();
  connection.start();
  old.open();
  old.receive('{"type":"reloaded"}');
  assert.deepEqual(recorded, []);
});
