// The console's events socket (`/emulator/console/events`): JSON frames from the emulator, kept open across
// emulator restarts by reconnecting with backoff. Pure of the DOM: the socket and the timers are passed in, so
// node runs the unit tests with fakes.

/** The first reconnection delay, in milliseconds. */
export const FIRST_DELAY_MS = 250;

/** The longest reconnection delay, in milliseconds. */
export const MAX_DELAY_MS = 5000;

/** The frame types the emulator sends. */
export const FRAME_TYPES = ["hello", "request", "push", "groups", "reloaded"];

/** The delay before reconnection attempt `attempt` (0-based): 250 ms doubling up to 5 s. */
export function backoffDelay(attempt) {
  const n = Math.max(0, Math.floor(attempt));
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(n, 16));
}

/** The socket URL for the page's location (`ws:` for `http:`, `wss:` for `https:`). */
export function eventsURL(location) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${location.host}/emulator/console/events`;
}

/** Reads a text frame: an object with a known `type`, or null for anything else. */
export function parseFrame(data) {
  if (typeof data !== "string") return null;
  let frame;
  try {
    frame = JSON.parse(data);
  } catch {
    return null;
  }
  if (!frame || typeof frame !== "object" || Array.isArray(frame)) return null;
  return FRAME_TYPES.includes(frame.type) ? frame : null;
}

/** `item` in front of `list`, keeping at most `cap` entries; a new array. */
export function prependCapped(list, item, cap = 200) {
  return [item, ...list].slice(0, cap);
}

/**
 * Keeps one events socket open, reconnecting after each close.
 *
 * The connection reports through callbacks: `onFrame(frame)` for each recognised frame, `onState("connected" |
 * "disconnected")` when the state changes (the first report is `connected` or, when the first attempt fails,
 * `disconnected`). After a close it waits `backoffDelay(attempt)` and tries again; the attempt count starts over
 * once a socket opens.
 *
 * ```js
 * const connection = new EventConnection({url, createSocket: (u) => new WebSocket(u), onFrame, onState});
 * connection.start();
 * ```
 */
export class EventConnection {
  /**
   * @param {object} options
   * @param {string} options.url the socket URL
   * @param {(url: string) => WebSocket} options.createSocket opens a socket (a WebSocket or a test double)
   * @param {(frame: object) => void} [options.onFrame]
   * @param {(state: "connected"|"disconnected", info: {attempt: number, delay?: number}) => void} [options.onState]
   * @param {(fn: Function, ms: number) => any} [options.setTimer]
   * @param {(handle: any) => void} [options.clearTimer]
   */
  constructor(options) {
    this.url = options.url;
    this.createSocket = options.createSocket;
    this.onFrame = options.onFrame || (() => {});
    this.onState = options.onState || (() => {});
    this.setTimer = options.setTimer || ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer = options.clearTimer || ((handle) => clearTimeout(handle));
    this.state = null;
    this.attempt = 0;
    this.socket = null;
    this.timer = null;
    this.stopped = true;
  }

  /** Opens the socket (once; later calls do nothing while running). */
  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.open();
  }

  /** Closes the socket and cancels any pending reconnection. */
  stop() {
    this.stopped = true;
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      try {
        socket.close();
      } catch {
        // Closing a socket that never opened may throw in some browsers.
      }
    }
  }

  open() {
    this.timer = null;
    let socket;
    try {
      socket = this.createSocket(this.url);
    } catch {
      this.lost();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.setState("connected", { attempt: 0 });
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      const frame = parseFrame(event.data);
      if (frame) this.onFrame(frame);
    };
    socket.onerror = () => {
      // A close event always follows; reconnection is handled there.
    };
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.lost();
    };
  }

  lost() {
    if (this.stopped) return;
    const delay = backoffDelay(this.attempt);
    this.attempt += 1;
    this.setState("disconnected", { attempt: this.attempt, delay });
    this.timer = this.setTimer(() => this.open(), delay);
  }

  setState(state, info) {
    if (this.state === state) return;
    this.state = state;
    this.onState(state, info);
  }
}
