// The emulator's HTTP API as the console calls it: same origin, JSON in and out.
// Pure of the DOM: node imports it in the unit tests (with a fetch stub).

/** Milliseconds since an arbitrary origin, for timing requests. */
export function now() {
  return typeof performance !== "undefined" ? performance.now() : Date.now();
}

/** Formats a duration in milliseconds for display: "0.8 ms", "12 ms", "1.4 s". */
export function formatTime(ms) {
  if (!Number.isFinite(ms)) return "";
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

/**
 * Sends a request and reads its JSON answer, never throwing for an HTTP error status.
 * Resolves to {status, ok, body, text, ms}; `body` is null when the answer is not JSON.
 * Rejects only when the server cannot be reached (the emulator is down).
 */
export async function request(method, path, body, headers = {}) {
  const started = now();
  const init = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text.length ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  return { status: response.status, ok: response.ok, body: parsed, text, ms: now() - started };
}

/** GET `path`; see `request`. */
export function getJSON(path) {
  return request("GET", path);
}

/** POST `body` (an object, or JSON text sent as is) to `path`; see `request`. */
export function postJSON(path, body, headers = {}) {
  return request("POST", path, body, headers);
}

/** `projects/{p}/locations/{l}/services/{s}` for the model's service. */
export function serviceName(model) {
  return `projects/${model.project || "p"}/locations/${model.location || "l"}/services/${model.serviceId}`;
}

/** The service's API path, e.g. `/v1/projects/p/locations/l/services/movies`. */
export function servicePath(model) {
  return `/v1/${serviceName(model)}`;
}

/** A connector's resource name, e.g. `projects/p/locations/l/services/movies/connectors/movies`. */
export function connectorName(model, connector) {
  return `${serviceName(model)}/connectors/${connector}`;
}

/** A connector's API path. */
export function connectorPath(model, connector) {
  return `/v1/${connectorName(model, connector)}`;
}

/**
 * Runs an admin GraphQL document (`:executeGraphql`, or `:executeGraphqlRead` with `{readOnly: true}`).
 * Resolves to {status, body, ms}; no `@auth` checks apply.
 */
export function executeGraphql(model, query, variables = {}, options = {}) {
  const method = options.readOnly ? "executeGraphqlRead" : "executeGraphql";
  const body = { query, variables };
  if (options.operationName) body.operationName = options.operationName;
  return postJSON(`${servicePath(model)}:${method}`, body);
}

/**
 * Runs a connector operation as an app would: `:executeQuery` or `:executeMutation`, signed in when `token`
 * (an ID token, sent as `X-Firebase-Auth-Token`) is given.
 */
export function executeConnector(model, connector, operationName, kind, variables = {}, token = null) {
  const method = kind === "mutation" ? "executeMutation" : "executeQuery";
  const headers = token ? { "X-Firebase-Auth-Token": token } : {};
  return postJSON(
    `${connectorPath(model, connector)}:${method}`,
    { name: connectorName(model, connector), operationName, variables },
    headers,
  );
}

/** The SQL the engine runs for a query's root fields: resolves to {status, body: {statements: [{sql, parameters}]}}. */
export function explain(connector, operationName, variables = {}) {
  return postJSON("/emulator/console/explain", { connector, operationName, variables });
}

/** The first error of an API answer as one line ("PERMISSION_DENIED: ..."), or null. */
export function errorSummary(answer) {
  const errors = answer && answer.body && Array.isArray(answer.body.errors) ? answer.body.errors : [];
  if (errors.length === 0) {
    if (answer && !answer.ok) return `HTTP ${answer.status}`;
    return null;
  }
  const first = errors[0];
  const code = first.extensions && first.extensions.code;
  return code ? `${code}: ${first.message}` : String(first.message);
}

/**
 * The errors of an API answer's body as GraphQL errors: `errors` as they are, or a Google RPC error
 * (`{"error": {"code", "message", "status"}}`, the shape of refusals) as one error with `extensions.code`.
 */
export function answerErrors(body) {
  if (!body || typeof body !== "object") return [];
  if (Array.isArray(body.errors) && body.errors.length) return body.errors;
  if (body.error && typeof body.error === "object") {
    return [{ message: String(body.error.message ?? ""), extensions: { code: body.error.status || String(body.error.code ?? "") } }];
  }
  return [];
}
