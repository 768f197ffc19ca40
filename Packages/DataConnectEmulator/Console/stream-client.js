// The realtime stream client: subscribes to connector queries over the WebSocket the JS SDK speaks
// (`ConnectorStreamService.Connect`), one socket per page, and keeps each subscription's latest data.
// Pure of the DOM: the WebSocket class and the timer functions are passed in, so node tests drive it with fakes.
//
// Protocol (client → server, one JSON text frame per request, `requestId` unique within the connection):
//   {"requestId": "1", "name": "projects/P/locations/L/services/S/connectors/C",
//    "headers": {"X-Firebase-Auth-Token": "..."}, "subscribe": {"operationName": "...", "variables": {...}},
//    "dataEtag": "..."}
//   {"requestId": "1", "cancel": {}}
// Server → client: text frames `{"result": {"requestId", "data", "dataEtag", "errors", "cancelled"}}` (binary
// frames hold the bare response). A response may omit `data` when it has not changed since `dataEtag`.

/** The stream's path for a service, as the current JS SDK builds it. */
export function streamPath(model) {
  const project = model.project || "p";
  const location = model.location || "l";
  return `/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/${project}/locations/${location}/services/${model.serviceId}`;
}

/** The stream's URL for a page served from `pageLocation` (`window.location`): ws: or wss: to the same host. */
export function streamURL(model, pageLocation) {
  const scheme = pageLocation.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${pageLocation.host}${streamPath(model)}`;
}

/** The delay before reconnection attempt `attempt` (0-based): 250 ms doubling up to 5 s. */
export function reconnectDelay(attempt, minDelay = 250, maxDelay = 5000) {
  return Math.min(maxDelay, minDelay * 2 ** Math.min(attempt, 16));
}

/**
 * Reads one server frame: a text frame must be `{"result": response}`; a binary frame (ArrayBuffer or typed
 * array) holds the bare response. Returns the response object, or throws with a reason.
 */
export function parseFrame(frame) {
  if (typeof frame === "string") {
    const parsed = JSON.parse(frame);
    if (!parsed || typeof parsed !== "object" || !parsed.result || typeof parsed.result !== "object") {
      throw new Error("a text frame must hold {\"result\": ...}");
    }
    return parsed.result;
  }
  if (frame instanceof ArrayBuffer || ArrayBuffer.isView(frame)) {
    const parsed = JSON.parse(new TextDecoder().decode(frame));
    if (!parsed || typeof parsed !== "object") throw new Error("a binary frame must hold a response object");
    return parsed;
  }
  throw new Error("unsupported frame");
}

const OPEN = 1;

/** How long a cancelled subscription waits for its socket to close (a stopping emulator) before it ends. */
const cancelGrace = 1500;

/**
 * One WebSocket to the stream, shared by every subscription of the page.
 *
 * The socket opens with the first subscription and closes when the last one is cancelled. When it closes
 * while subscriptions are active (the emulator stopped or restarted), the client reconnects after
 * `reconnectDelay` and subscribes them again, sending each one's last `dataEtag`.
 *
 * A `cancelled` response ends the subscription after a short grace, unless the socket closes meanwhile: a
 * stopping emulator cancels everything before it closes, and those subscriptions are sent again on reconnection.
 * Subscriptions share the connection's user: a token is sent in `headers` when it differs from the one the
 * connection holds, and a subscription without a token on a signed-in connection gets a new connection.
 *
 * Listener callbacks (all optional): `onResult({data, errors, dataEtag, updates, response})` after each response
 * (`data` is the last data seen when the response omits it; `updates` counts responses), `onCancelled()`
 * when the server ends the subscription, and `onState(state)` with "connecting" | "open" | "reconnecting" |
 * "closed".
 */
/** Detaches a socket's handlers and closes it, ignoring a socket that never opened or is already closing. */
function closeQuietly(socket) {
  socket.onclose = null;
  socket.onmessage = null;
  socket.onopen = null;
  socket.onerror = null;
  try {
    socket.close();
  } catch {
    // Closing a socket that never opened may throw in some engines; it is gone either way.
  }
}

export class StreamClient {
  constructor({ url, WebSocket: socketClass, setTimeout: setTimer, clearTimeout: clearTimer, onError } = {}) {
    this.url = url;
    this.socketClass = socketClass || globalThis.WebSocket;
    this.setTimer = setTimer || ((fn, ms) => globalThis.setTimeout(fn, ms));
    this.clearTimer = clearTimer || ((id) => globalThis.clearTimeout(id));
    this.onError = onError || (() => {});
    this.socket = null;
    this.state = "closed";
    this.nextRequestId = 1;
    this.subscriptions = new Map();
    this.attempt = 0;
    this.timer = null;
    // The ID token the server holds for this connection (a stream speaks for one user at a time).
    this.connectionToken = null;
  }

  /**
   * Subscribes to a query: `{name, operationName, variables, token}` (`name` is the connector's resource name;
   * `token` the ID token, or null when signed out). Returns `{requestId, cancel()}`.
   */
  subscribe({ name, operationName, variables = {}, token = null }, listener = {}) {
    const requestId = String(this.nextRequestId++);
    const subscription = {
      requestId,
      name,
      operationName,
      variables,
      token,
      listener,
      data: undefined,
      dataEtag: null,
      updates: 0,
      active: true,
      pendingCancel: null,
    };
    this.subscriptions.set(requestId, subscription);
    if (this.socket && this.socket.readyState === OPEN) {
      this.sendSubscribe(subscription);
    } else if (!this.socket && this.timer === null) {
      this.connect();
    }
    return {
      requestId,
      cancel: () => this.cancel(requestId),
    };
  }

  /** Cancels a subscription (sends `cancel` when the socket is open); closes the socket when none is left. */
  cancel(requestId) {
    const subscription = this.subscriptions.get(requestId);
    if (!subscription) return;
    subscription.active = false;
    if (subscription.pendingCancel !== null) {
      this.clearTimer(subscription.pendingCancel);
      subscription.pendingCancel = null;
    }
    this.subscriptions.delete(requestId);
    if (this.socket && this.socket.readyState === OPEN) {
      this.send({ requestId, cancel: {} });
    }
    if (this.subscriptions.size === 0) this.closeIdle();
  }

  /** Cancels every subscription and closes the socket. */
  close() {
    for (const requestId of [...this.subscriptions.keys()]) this.cancel(requestId);
    this.closeIdle();
  }

  closeIdle() {
    if (this.timer !== null) {
      this.clearTimer(this.timer);
      this.timer = null;
    }
    const socket = this.socket;
    this.socket = null;
    this.attempt = 0;
    if (socket) {
      closeQuietly(socket);
    }
    this.setState("closed");
  }

  connect() {
    this.timer = null;
    let socket;
    try {
      socket = new this.socketClass(this.url);
    } catch (error) {
      this.onError(error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.connectionToken = null;
    try {
      socket.binaryType = "arraybuffer";
    } catch {
      // Fakes may not have the property.
    }
    this.setState(this.attempt === 0 ? "connecting" : "reconnecting");
    socket.onopen = () => {
      if (this.socket !== socket) return;
      this.attempt = 0;
      this.setState("open");
      // Signed-out subscriptions first: a connection can sign in later, never out.
      const all = [...this.subscriptions.values()];
      for (const subscription of [...all.filter((s) => !s.token), ...all.filter((s) => s.token)]) {
        if (this.socket !== socket) break;
        this.sendSubscribe(subscription);
      }
    };
    socket.onmessage = (event) => {
      if (this.socket !== socket) return;
      this.receive(event.data);
    };
    socket.onerror = () => {};
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      for (const subscription of this.subscriptions.values()) {
        if (subscription.pendingCancel !== null) {
          this.clearTimer(subscription.pendingCancel);
          subscription.pendingCancel = null;
        }
      }
      if (this.subscriptions.size === 0) {
        this.setState("closed");
        return;
      }
      this.scheduleReconnect();
    };
  }

  scheduleReconnect() {
    const delay = reconnectDelay(this.attempt);
    this.attempt += 1;
    this.setState("reconnecting");
    this.timer = this.setTimer(() => this.connect(), delay);
  }

  sendSubscribe(subscription) {
    if (!subscription.token && this.connectionToken) {
      // A connection cannot sign out: start a new one, which subscribes everything again.
      this.restart();
      return;
    }
    const request = { requestId: subscription.requestId, name: subscription.name };
    if (subscription.token && subscription.token !== this.connectionToken) {
      request.headers = { "X-Firebase-Auth-Token": subscription.token };
      this.connectionToken = subscription.token;
    }
    request.subscribe = { operationName: subscription.operationName, variables: subscription.variables };
    if (subscription.dataEtag) request.dataEtag = subscription.dataEtag;
    this.send(request);
  }

  /** Replaces the socket with a new one at once (active subscriptions are sent again when it opens). */
  restart() {
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      closeQuietly(socket);
    }
    this.connect();
  }

  send(message) {
    try {
      this.socket.send(JSON.stringify(message));
    } catch (error) {
      this.onError(error);
    }
  }

  receive(frame) {
    let response;
    try {
      response = parseFrame(frame);
    } catch (error) {
      this.onError(error);
      return;
    }
    const subscription = this.subscriptions.get(String(response.requestId));
    if (!subscription) return;
    const cancelled = response.cancelled === true;
    subscription.updates += 1;
    // A cancellation carries `data: null`; the last data stays on show.
    if (!cancelled && Object.prototype.hasOwnProperty.call(response, "data")) subscription.data = response.data;
    if (response.dataEtag) subscription.dataEtag = response.dataEtag;
    const listener = subscription.listener;
    if (listener.onResult) {
      listener.onResult({
        data: subscription.data,
        errors: Array.isArray(response.errors) ? response.errors : [],
        dataEtag: subscription.dataEtag,
        updates: subscription.updates,
        response,
      });
    }
    if (cancelled && subscription.pendingCancel === null) {
      // A stopping emulator cancels every subscription and then closes the socket: wait a moment, and when the
      // socket closes meanwhile, keep the subscription for the reconnection instead.
      subscription.pendingCancel = this.setTimer(() => this.finishCancel(subscription), cancelGrace);
    }
  }

  finishCancel(subscription) {
    subscription.pendingCancel = null;
    if (this.subscriptions.get(subscription.requestId) !== subscription) return;
    this.subscriptions.delete(subscription.requestId);
    subscription.active = false;
    if (subscription.listener.onCancelled) subscription.listener.onCancelled();
    if (this.subscriptions.size === 0) this.closeIdle();
  }

  setState(state) {
    if (this.state === state) return;
    this.state = state;
    for (const subscription of this.subscriptions.values()) {
      if (subscription.listener.onState) subscription.listener.onState(state);
    }
  }
}

const clients = new Map();

/** The page's one client for `url` (created on first use). */
export function sharedStreamClient(url) {
  let client = clients.get(url);
  if (!client) {
    client = new StreamClient({ url });
    clients.set(url, client);
  }
  return client;
}
