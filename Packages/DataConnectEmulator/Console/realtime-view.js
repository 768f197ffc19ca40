// The Realtime view: the subscription groups the emulator keeps (one per operation, variables and caller), live
// from `groups` events, and the feed of pushes (newest first, at most 200). The feed is recorded for the whole
// life of the page, also while another view is shown.

import { getJSON } from "./api.js";
import { prependCapped } from "./events.js";
import { el } from "./dom.js";

/** Pushes kept in the feed. */
export const FEED_LIMIT = 200;

/** Why a push was sent, as the emulator says it. */
const REASONS = ["initial", "change", "refresh"];

let feed = [];
const feedListeners = new Set();

/** Records a `push` frame's push at the top of the feed. */
export function recordPush(push) {
  feed = prependCapped(feed, push, FEED_LIMIT);
  for (const listener of feedListeners) listener(push);
}

/** The pushes recorded so far, newest first. */
export function recordedPushes() {
  return feed;
}

/** Groups in display order: by connector, operation, then id. */
export function sortGroups(groups) {
  return [...(groups || [])].sort(
    (a, b) =>
      String(a.connector).localeCompare(String(b.connector)) ||
      String(a.operation).localeCompare(String(b.operation)) ||
      String(a.id).localeCompare(String(b.id), undefined, { numeric: true }),
  );
}

function timeText(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? String(iso) : date.toLocaleTimeString();
}

function pushItem(push) {
  const reason = REASONS.includes(push.reason) ? push.reason : "change";
  return el(
    "li",
    { "data-group": push.group },
    el("span", { class: "muted mono", text: timeText(push.time) }),
    el("span", { class: "mono strong", text: ` ${push.connector}/${push.operation}` }),
    el("span", { class: "mono", text: ` ${push.group}` }),
    el("span", { class: `badge reason-${reason}`, text: push.reason || "change" }),
    el("span", { class: "muted", text: ` to ${push.subscribers} subscriber${push.subscribers === 1 ? "" : "s"}` }),
    push.etag ? el("span", { class: "muted mono", text: ` etag ${push.etag}` }) : null,
  );
}

/** Mounts the Realtime view in `root`. */
export function mountRealtime(root, ctx) {
  root.replaceChildren();
  let mounted = true;
  const summary = el("span", { class: "muted", "data-testid": "realtime-subscribers", text: "" });
  root.appendChild(el("div", { class: "view-header" }, el("h2", { text: "Realtime" }), summary));

  const tbody = el("tbody");
  const table = el(
    "table",
    { class: "grid", "data-testid": "realtime-groups" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["Group", "Operation", "Variables", "Caller", "Subscribers", "Pushes", "Last push", "Etag"].map((t) =>
          el("th", { scope: "col", class: t === "Subscribers" || t === "Pushes" ? "num" : null, text: t }),
        ),
      ),
    ),
    tbody,
  );
  root.appendChild(el("h3", { text: "Subscription groups" }));
  root.appendChild(el("div", { class: "grid-wrap" }, table));

  const list = el("ul", { class: "feed", "data-testid": "realtime-feed", "aria-live": "polite" });
  // Outside the list, which holds one item per push and nothing else.
  const noPushes = el("p", { class: "muted empty", "data-testid": "realtime-feed-empty", text: "No pushes yet." });
  const clear = el("button", {
    type: "button",
    "data-testid": "realtime-feed-clear",
    text: "Clear",
    onclick: () => {
      feed = [];
      renderFeed();
    },
  });
  root.appendChild(
    el(
      "div",
      { class: "section-header" },
      el("h3", { text: "Pushes" }),
      el("span", { class: "muted", text: `newest first, last ${FEED_LIMIT}` }),
      clear,
    ),
  );
  root.appendChild(list);
  root.appendChild(noPushes);

  function renderGroups(groups, subscribers) {
    const sorted = sortGroups(groups);
    const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
    summary.textContent = `${plural(subscribers ?? 0, "subscriber")} in ${plural(sorted.length, "group")}`;
    tbody.replaceChildren(
      ...sorted.map((g) =>
        el(
          "tr",
          { "data-group": g.id },
          el("td", { class: "mono", "data-field": "id", text: g.id }),
          el(
            "td",
            { "data-field": "operation" },
            el("a", {
              href: `#/operations/${encodeURIComponent(g.connector)}/${encodeURIComponent(g.operation)}`,
              class: "mono",
              text: `${g.connector}/${g.operation}`,
            }),
          ),
          el("td", { class: "mono small", "data-field": "variables", text: JSON.stringify(g.variables ?? {}) }),
          el("td", { class: "mono", "data-field": "caller", text: g.caller }),
          el("td", { class: "num", "data-field": "subscribers", text: String(g.subscribers) }),
          el("td", { class: "num", "data-field": "pushes", text: String(g.pushes) }),
          el("td", { "data-field": "lastPush", text: timeText(g.lastPush) }),
          el("td", { class: "mono small", "data-field": "etag", text: g.etag || "" }),
        ),
      ),
    );
    if (sorted.length === 0) {
      const text = "No subscriptions. Subscribe to a query from the Operations view or an app.";
      tbody.appendChild(el("tr", { class: "empty-row" }, el("td", { colspan: 8, class: "muted", text })));
    }
  }

  function renderFeed() {
    list.replaceChildren(...feed.map(pushItem));
    list.hidden = feed.length === 0;
    noPushes.hidden = feed.length > 0;
  }

  const onGroups = (event) => renderGroups(event.detail.groups, event.detail.subscribers);
  let refreshTimer = null;
  const onPush = (push) => {
    list.hidden = false;
    noPushes.hidden = true;
    list.insertBefore(pushItem(push), list.firstChild);
    while (list.children.length > FEED_LIMIT) list.lastChild.remove();
    // A push changes its group's counters, which `groups` frames do not carry: read the state again, at most
    // every 250 ms.
    if (refreshTimer === null) {
      refreshTimer = setTimeout(() => {
        refreshTimer = null;
        refresh();
      }, 250);
    }
  };
  const refresh = async () => {
    try {
      const answer = await getJSON("/emulator/console/realtime");
      if (!mounted) return;
      if (answer.ok && answer.body) renderGroups(answer.body.groups, answer.body.subscribers);
      else ctx.toast(`Realtime state: HTTP ${answer.status}`, "error");
    } catch {
      // Disconnected: the view refreshes on reconnection.
    }
  };
  ctx.events.addEventListener("groups", onGroups);
  feedListeners.add(onPush);
  renderGroups([], 0);
  renderFeed();
  refresh();
  return {
    unmount() {
      mounted = false;
      clearTimeout(refreshTimer);
      ctx.events.removeEventListener("groups", onGroups);
      feedListeners.delete(onPush);
    },
  };
}
