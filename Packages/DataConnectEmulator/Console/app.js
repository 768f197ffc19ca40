// The console's shell: the header (service, database, connection state), the tabs with hash routing and
// Alt+1..7, the events socket with reconnection, the shared context every view receives, and the toasts.

import { executeGraphql, getJSON } from "./api.js";
import { EventConnection, eventsURL } from "./events.js";
import { mountSchema } from "./schema-view.js";
import { mountData } from "./data-view.js";
import { mountOperations } from "./operations-view.js";
import { mountGraphQL } from "./graphql-view.js";
import { mountRealtime, recordPush } from "./realtime-view.js";
import { mountRequests } from "./requests-view.js";
import { mountAuth } from "./auth-view.js";
import { el } from "./dom.js";

/** The tabs, in order (Alt+1 is the first). */
const TABS = [
  { name: "schema", label: "Schema" },
  { name: "data", label: "Data" },
  { name: "operations", label: "Operations" },
  { name: "graphql", label: "GraphQL" },
  { name: "realtime", label: "Realtime" },
  { name: "requests", label: "Requests" },
  { name: "auth", label: "Authentication" },
];

/** Reads a location hash: `#/data/Movie` → `{view: "data", params: {type: "Movie"}}`; unknown → the schema. */
function parseRoute(hash) {
  const parts = String(hash || "")
    .replace(/^#\/?/, "")
    .split("/")
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    });
  const view = TABS.some((t) => t.name === parts[0]) ? parts[0] : "schema";
  const params = {};
  if (view === "data" && parts[1]) params.type = parts[1];
  if (view === "operations") {
    if (parts[1]) params.connector = parts[1];
    if (parts[2]) params.operation = parts[2];
  }
  return { view, params };
}

/** The standard introspection query (GraphQL spec, October 2021), as GraphiQL sends it. */
const INTROSPECTION_QUERY = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) {
    name description args { ...InputValue } type { ...TypeRef } isDeprecated deprecationReason
  }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name
    ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`;

function byTestId(id) {
  return document.querySelector(`[data-testid="${id}"]`);
}

/** The console application: one per page. */
class ConsoleApp {
  constructor() {
    this.events = new EventTarget();
    this.current = null;
    this.currentRoute = null;
    this.introspectionPromise = null;
    this.everConnected = false;
    const app = this;
    this.ctx = {
      model: null,
      info: null,
      events: this.events,
      introspection() {
        return app.introspection();
      },
      navigate(hash) {
        app.navigate(hash);
      },
      toast(message, kind = "info") {
        app.toast(message, kind);
      },
    };
  }

  /** Resolves to the introspection answer's data, `{__schema}`; cached until the model changes. */
  introspection() {
    if (!this.introspectionPromise) {
      const model = this.ctx.model;
      const promise = (async () => {
        if (!model || !model.serviceId) throw new Error("no service is loaded");
        const answer = await executeGraphql(model, INTROSPECTION_QUERY, {}, { readOnly: true });
        const data = answer.body && answer.body.data;
        if (!data || !data.__schema) {
          const errors = (answer.body && answer.body.errors) || [];
          throw new Error(errors.length ? errors[0].message : `introspection failed (HTTP ${answer.status})`);
        }
        return { __schema: data.__schema };
      })();
      this.introspectionPromise = promise;
      promise.catch(() => {
        if (this.introspectionPromise === promise) this.introspectionPromise = null;
      });
    }
    return this.introspectionPromise;
  }

  navigate(hash) {
    if (location.hash === hash) this.render(true);
    else location.hash = hash;
  }

  toast(message, kind = "info") {
    const area = byTestId("toasts");
    if (!area) return;
    const role = kind === "error" ? "alert" : "status";
    const item = el("div", { class: `toast toast-${kind}`, role }, String(message));
    area.appendChild(item);
    while (area.children.length > 4) area.firstChild.remove();
    setTimeout(() => item.remove(), kind === "error" ? 8000 : 4000);
  }

  /** Fetches the emulator's info and the console model; returns whether the model changed. */
  async loadModel() {
    const before = JSON.stringify(this.ctx.model);
    try {
      const [info, model] = await Promise.all([getJSON("/emulator/info"), getJSON("/emulator/console/model")]);
      if (info.ok) this.ctx.info = info.body;
      if (model.ok && model.body) {
        this.ctx.model = model.body;
      } else {
        this.ctx.model = null;
        this.toast(`The console model is unavailable (HTTP ${model.status}).`, "error");
      }
    } catch {
      // The emulator is down; the events socket reconnects and loads again.
    }
    this.renderHeader();
    const changed = JSON.stringify(this.ctx.model) !== before;
    if (changed) this.introspectionPromise = null;
    return changed;
  }

  renderHeader() {
    const { info, model } = this.ctx;
    const service = byTestId("service-id");
    const engine = byTestId("database-engine");
    const firstService = info && Array.isArray(info.services) ? info.services[0] : null;
    const serviceId = (model && model.serviceId) || (firstService && firstService.serviceId);
    service.textContent = serviceId || "no service loaded";
    const db = info && info.database;
    const where = db && db.location ? ` · ${db.location}` : "";
    engine.textContent = db ? [db.engine, db.version].filter(Boolean).join(" ") + where : "";
    engine.title = engine.textContent;
    const version = byTestId("emulator-version");
    version.textContent = info && info.version ? `v${info.version}` : "";
    document.title = serviceId ? `${serviceId} · Data Connect emulator` : "Data Connect emulator";
  }

  setConnection(state) {
    const status = byTestId("connection-status");
    status.setAttribute("data-state", state);
    status.textContent = state === "connected" ? "connected" : "disconnected: reconnecting…";
    status.title =
      state === "connected" ? "The events socket is open." : "The emulator is not answering; trying again.";
  }

  /** Mounts the view the location hash names (again when `force` or when the route changed). */
  render(force = false) {
    const route = parseRoute(location.hash);
    const key = JSON.stringify(route);
    if (!force && this.currentRoute === key && this.current) return;
    this.currentRoute = key;
    if (this.current) {
      try {
        this.current.handle.unmount();
      } catch (error) {
        console.warn("unmount failed", error);
      }
      this.current = null;
    }
    for (const tab of TABS) {
      const link = byTestId(`tab-${tab.name}`);
      if (tab.name === route.view) link.setAttribute("aria-current", "page");
      else link.removeAttribute("aria-current");
    }
    const main = document.querySelector("main");
    const root = el("div", { "data-view": route.view, class: `view view-${route.view}` });
    main.replaceChildren(root);
    let handle;
    try {
      switch (route.view) {
        case "data":
          handle = mountData(root, this.ctx, route.params);
          break;
        case "operations":
          handle = mountOperations(root, this.ctx, route.params);
          break;
        case "graphql":
          handle = mountGraphQL(root, this.ctx);
          break;
        case "realtime":
          handle = mountRealtime(root, this.ctx);
          break;
        case "requests":
          handle = mountRequests(root, this.ctx);
          break;
        case "auth":
          handle = mountAuth(root, this.ctx);
          break;
        default:
          handle = mountSchema(root, this.ctx);
      }
    } catch (error) {
      root.replaceChildren(el("p", { class: "error-box" }, `This view failed: ${error.message}`));
      console.error(error);
      handle = null;
    }
    this.current = { view: route.view, handle: handle || { unmount() {} } };
  }

  onFrame(frame) {
    if (frame.type === "push" && frame.push) recordPush(frame.push);
    if (frame.type === "hello") return;
    this.events.dispatchEvent(new CustomEvent(frame.type, { detail: frame }));
    if (frame.type === "reloaded") this.reload("The service was reloaded.");
  }

  async reload(message) {
    this.introspectionPromise = null;
    await this.loadModel();
    this.render(true);
    if (message) this.toast(message, "info");
  }

  async onState(state) {
    this.setConnection(state);
    this.events.dispatchEvent(new CustomEvent(state, { detail: { type: state } }));
    if (state === "disconnected") return;
    // Each `connected` but the first follows a disconnection: the emulator may have restarted.
    const first = !this.everConnected;
    this.everConnected = true;
    if (first && this.ctx.model) return;
    // After the emulator comes back: fetch the model again and show fresh state.
    const changed = await this.loadModel();
    const view = this.current && this.current.view;
    const live = view === "data" || view === "realtime" || view === "requests";
    if (changed || live || !this.current) this.render(true);
    if (!first) this.toast("Reconnected to the emulator.", "ok");
  }

  onKey(event) {
    if (!event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const digit = /^Digit([1-7])$/.exec(event.code || "") || /^([1-7])$/.exec(event.key || "");
    if (!digit) return;
    event.preventDefault();
    const tab = TABS[Number(digit[1]) - 1];
    const link = byTestId(`tab-${tab.name}`);
    this.navigate(link.getAttribute("href"));
    link.focus();
  }

  async start() {
    this.setConnection("disconnected");
    window.addEventListener("hashchange", () => this.render());
    document.addEventListener("keydown", (event) => this.onKey(event));
    await this.loadModel();
    this.render(true);
    this.connection = new EventConnection({
      url: eventsURL(location),
      createSocket: (url) => new WebSocket(url),
      onFrame: (frame) => this.onFrame(frame),
      onState: (state) => this.onState(state),
    });
    this.connection.start();
  }
}

new ConsoleApp().start();
