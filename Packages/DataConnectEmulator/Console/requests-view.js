// The Requests view: the requests the emulator served over REST and gRPC, newest first (at most 200), live from
// `request` events, filterable by operation, with their status coloured.

import { formatTime, getJSON } from "./api.js";
import { el } from "./dom.js";

/** Requests kept in the table. */
export const REQUEST_LIMIT = 200;

/**
 * Adds requests to a list kept newest first: `incoming` may be in any order; a request already there (same id)
 * is not added twice; at most `cap` are kept. Returns a new array.
 */
export function mergeRequests(list, incoming, cap = REQUEST_LIMIT) {
  const byId = new Map();
  for (const request of [...list, ...incoming]) byId.set(request.id, request);
  return [...byId.values()].sort((a, b) => b.id - a.id).slice(0, cap);
}

/** Whether a request matches the filter text: its operation, connector or method contain it (any case). */
export function matchesFilter(request, text) {
  const needle = String(text || "").trim().toLowerCase();
  if (needle === "") return true;
  return [request.operation, request.connector, request.method].some(
    (value) => value && String(value).toLowerCase().includes(needle),
  );
}

/** The CSS class of an HTTP status: `status-ok` (2xx), `status-client` (4xx), `status-server` (5xx and others). */
export function statusClass(status) {
  if (status >= 200 && status < 300) return "status-ok";
  if (status >= 400 && status < 500) return "status-client";
  return "status-server";
}

const HEADINGS = ["#", "Time", "Protocol", "Method", "Connector", "Operation", "Caller", "Status", "Code", "Duration"];

function timeText(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return String(iso || "");
  return `${date.toLocaleTimeString()}.${String(date.getMilliseconds()).padStart(3, "0")}`;
}

/** How the Protocol column names a request's wire: `HTTP` (REST over HTTP/1.1) or `gRPC` (HTTP/2). */
export function protocolText(protocol) {
  return protocol === "grpc" ? "gRPC" : "HTTP";
}

function requestRow(request) {
  return el(
    "tr",
    { "data-request-id": request.id, class: statusClass(request.status) },
    el("td", { class: "num muted", "data-field": "id", text: String(request.id) }),
    el("td", { class: "mono small", "data-field": "time", title: request.time, text: timeText(request.time) }),
    el("td", { class: "mono small", "data-field": "protocol", text: protocolText(request.protocol) }),
    el("td", { class: "mono", "data-field": "method", text: request.method }),
    el("td", { class: "mono", "data-field": "connector", text: request.connector || "" }),
    el("td", { class: "mono strong", "data-field": "operation", text: request.operation || "" }),
    el("td", { class: "mono", "data-field": "caller", text: request.caller }),
    el(
      "td",
      { class: "status", "data-field": "status" },
      el("span", { class: `badge ${statusClass(request.status)}`, text: String(request.status) }),
    ),
    el("td", { class: "mono small", "data-field": "code", text: request.code || "" }),
    el("td", {
      class: "num",
      "data-field": "durationMs",
      title: `${request.durationMs} ms`,
      text: formatTime(request.durationMs),
    }),
  );
}

/** Mounts the Requests view in `root`. */
export function mountRequests(root, ctx) {
  root.replaceChildren();
  let mounted = true;
  let requests = [];
  const filter = el("input", {
    type: "search",
    id: "requests-filter",
    "data-testid": "requests-filter",
    placeholder: "operation, connector or method",
    "aria-label": "filter requests by operation",
    oninput: () => render(),
  });
  const count = el("span", { class: "muted", "data-testid": "requests-count" });
  const clear = el("button", {
    type: "button",
    "data-testid": "requests-clear",
    text: "Clear",
    onclick: () => {
      requests = [];
      render();
    },
  });
  root.appendChild(
    el(
      "div",
      { class: "view-header" },
      el("h2", { text: "Requests" }),
      el("label", { for: "requests-filter", class: "muted", text: "Filter" }),
      filter,
      count,
      clear,
    ),
  );
  const tbody = el("tbody");
  root.appendChild(
    el(
      "div",
      { class: "grid-wrap" },
      el(
        "table",
        { class: "grid requests", "data-testid": "requests-table" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            HEADINGS.map((t) => el("th", { scope: "col", class: t === "Duration" ? "num" : null, text: t })),
          ),
        ),
        tbody,
      ),
    ),
  );

  function render() {
    const shown = requests.filter((r) => matchesFilter(r, filter.value));
    tbody.replaceChildren(...shown.map(requestRow));
    if (shown.length === 0) {
      const text = requests.length ? "No request matches the filter." : "No requests yet.";
      tbody.appendChild(el("tr", { class: "empty-row" }, el("td", { colspan: HEADINGS.length, class: "muted", text })));
    }
    const total = `${requests.length} request${requests.length === 1 ? "" : "s"}`;
    count.textContent = shown.length === requests.length ? total : `${shown.length} of ${total}`;
  }

  // Requests can arrive in bursts: draw at most once a frame.
  let pending = null;
  const onRequest = (event) => {
    const request = event.detail && event.detail.request;
    if (!request) return;
    requests = mergeRequests(requests, [request]);
    if (pending === null) {
      pending = requestAnimationFrame(() => {
        pending = null;
        render();
      });
    }
  };
  ctx.events.addEventListener("request", onRequest);
  render();
  (async () => {
    try {
      const answer = await getJSON("/emulator/console/requests");
      if (!mounted) return;
      if (answer.ok && answer.body && Array.isArray(answer.body.requests)) {
        requests = mergeRequests(requests, answer.body.requests);
        render();
      } else {
        ctx.toast(`Requests: HTTP ${answer.status}`, "error");
      }
    } catch {
      // Disconnected: the view is mounted again on reconnection.
    }
  })();
  return {
    unmount() {
      mounted = false;
      if (pending !== null) cancelAnimationFrame(pending);
      ctx.events.removeEventListener("request", onRequest);
    },
  };
}
