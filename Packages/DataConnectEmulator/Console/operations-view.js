// The Operations view: every connector operation with its kind and @auth level, and for the selected one a
// variables form (with a JSON editor kept in sync), the caller (unauthenticated, a signed-in user, or admin),
// the answer (status, errors, data, timing, the SQL the engine ran) and a live subscription for queries.
// The form's logic lives in variables-form.js, tokens in auth-token.js, the stream in stream-client.js; an Auth
// emulator user is signed in as through auth-accounts.js.

import { answerErrors, connectorName, executeConnector, executeGraphql, explain, formatTime } from "./api.js";
import { decodeToken, loadCaller, saveCaller, tokenForCaller } from "./auth-token.js";
import { AuthAdminClient, authProjectId, nextPageToken } from "./auth-accounts.js";
import { request } from "./api.js";
import { sharedStreamClient, streamURL } from "./stream-client.js";
import {
  buildFormModel,
  controlText,
  fieldKey,
  getPath,
  initialValues,
  missingRequired,
  newItemValue,
  parseControl,
  parseVariablesText,
  setPath,
  variablesText,
  variablesToSend,
} from "./variables-form.js";
import { h } from "./dom.js";

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** Filter text and per-operation variables, kept while the page lives (views are remounted on navigation). */
const remembered = { filter: "", variables: new Map() };

const authLabels = {
  PUBLIC: "PUBLIC",
  USER: "USER",
  USER_ANON: "USER_ANON",
  USER_EMAIL_VERIFIED: "USER_EMAIL_VERIFIED",
  NO_ACCESS: "NO_ACCESS",
};

function authText(operation) {
  if (operation.auth && authLabels[operation.auth]) return `@auth(${operation.auth})`;
  if (operation.authExpression) return "@auth(expr)";
  return "no @auth";
}

/** Mounts the view into `root`; `params` is `{connector, operation}` from `#/operations/<connector>/<operation>`. */
export function mountOperations(root, ctx, params = {}) {
  let unmounted = false;
  let subscription = null;
  const model = ctx.model;
  root.classList.add("ops-view");

  if (!model || !Array.isArray(model.connectors)) {
    root.append(h("p", { class: "ops-empty" }, "No service is loaded, so there are no operations to run."));
    return { unmount() {} };
  }

  const operations = [];
  for (const connector of model.connectors) {
    for (const operation of connector.operations || []) operations.push({ connector: connector.name, ...operation });
  }
  // Queries first, then mutations; the model's order within each kind.
  const kindOrder = (operation) => (operation.kind === "query" ? 0 : 1);
  operations.sort((a, b) => kindOrder(a) - kindOrder(b));
  const selected =
    operations.find((op) => op.connector === params.connector && op.name === params.operation) || null;

  // MARK: The list

  const filter = h("input", {
    type: "search",
    class: "ops-filter",
    placeholder: "Filter operations",
    "aria-label": "Filter operations",
    "data-testid": "operation-filter",
  });
  filter.value = remembered.filter;
  const list = h("ul", { class: "ops-list", "data-testid": "operation-list", "aria-label": "Operations" });
  const items = operations.map((operation) => {
    const key = `${operation.connector}/${operation.name}`;
    const link = h(
      "a",
      {
        href: `#/operations/${encodeURIComponent(operation.connector)}/${encodeURIComponent(operation.name)}`,
        "data-operation": key,
        "data-kind": operation.kind,
        "aria-current": selected === operation ? "page" : null,
        title: key,
      },
      [
        h("span", { class: "ops-item-name" }, operation.name),
        h("span", { class: "ops-item-meta" }, [
          h("span", { class: `ops-badge ops-kind-${operation.kind}` }, operation.kind),
          h("span", { class: `ops-badge ops-auth ops-auth-${(operation.auth || "none").toLowerCase()}` }, authText(operation)),
          model.connectors.length > 1 ? h("span", { class: "ops-badge" }, operation.connector) : null,
        ]),
      ],
    );
    const item = h("li", {}, [link]);
    return { operation, item, text: `${key} ${operation.kind} ${operation.auth || ""}`.toLowerCase() };
  });
  for (const entry of items) list.append(entry.item);
  const noMatch = h("p", { class: "ops-muted", hidden: true }, "No operation matches.");
  function applyFilter() {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const entry of items) {
      const visible = words.every((word) => entry.text.includes(word));
      entry.item.hidden = !visible;
      if (visible) shown += 1;
    }
    noMatch.hidden = shown !== 0;
    remembered.filter = filter.value;
  }
  filter.addEventListener("input", applyFilter);
  applyFilter();
  const sidebar = h("aside", { class: "ops-sidebar" }, [filter, list, noMatch]);

  const detail = h("section", { class: "ops-detail", "aria-label": "Operation" });
  root.append(h("div", { class: "ops-layout" }, [sidebar, detail]));

  if (!selected) {
    detail.append(
      h(
        "p",
        { class: "ops-muted" },
        operations.length ? "Pick an operation to run it." : "The connectors have no operations.",
      ),
    );
    if (params.operation) {
      detail.prepend(h("p", { class: "ops-error" }, `There is no operation ${params.connector}/${params.operation}.`));
    }
    return { unmount() {} };
  }

  const operationKey = `${selected.connector}/${selected.name}`;
  const isQuery = selected.kind === "query";

  // MARK: The header

  const header = h("header", { class: "ops-header" }, [
    h("h2", {}, selected.name),
    h("span", { class: `ops-badge ops-kind-${selected.kind}` }, selected.kind),
    h("span", { class: "ops-badge ops-auth" }, authText(selected)),
    h("span", { class: "ops-muted" }, `connector ${selected.connector}`),
  ]);
  detail.append(header);
  if (selected.authExpression) {
    detail.append(h("p", { class: "ops-muted" }, `@auth expression: ${selected.authExpression}`));
  }
  if (selected.insecureReason) {
    detail.append(h("p", { class: "ops-muted" }, `insecureReason: ${selected.insecureReason}`));
  }
  if (Array.isArray(selected.tables) && selected.tables.length) {
    detail.append(h("p", { class: "ops-muted" }, `tables: ${selected.tables.join(", ")}`));
  }
  const sourceBlock = h("details", { class: "ops-source" }, [
    h("summary", {}, "Source"),
    h("pre", { class: "ops-code" }, selected.source || ""),
  ]);
  detail.append(sourceBlock);

  // MARK: The caller

  let caller = loadCaller(storage());
  const authProject = authProjectId(ctx.info);
  const authClient = authProject ? new AuthAdminClient(authProject, request) : null;
  if (caller.mode === "authUser" && !authClient) caller.mode = "unauthenticated";
  const modeSelect = h("select", { "data-testid": "caller-mode", id: "ops-caller-mode" });
  for (const [value, label] of [
    ["unauthenticated", "Unauthenticated"],
    ["user", "Signed-in user (hand-made token)"],
    authClient ? ["authUser", "Auth emulator user"] : null,
    ["admin", "Admin (no @auth)"],
  ].filter(Boolean)) {
    const option = h("option", { value }, label);
    modeSelect.append(option);
  }
  modeSelect.value = caller.mode;
  const uidInput = h("input", { type: "text", "data-testid": "caller-uid", id: "ops-caller-uid", autocomplete: "off" });
  uidInput.value = caller.uid;
  const emailInput = h("input", { type: "email", "data-testid": "caller-email", id: "ops-caller-email", autocomplete: "off" });
  emailInput.value = caller.email;
  const verifiedInput = h("input", { type: "checkbox", "data-testid": "caller-email-verified", id: "ops-caller-verified" });
  verifiedInput.checked = caller.emailVerified;
  const claimsInput = h("textarea", {
    "data-testid": "caller-claims",
    id: "ops-caller-claims",
    rows: 2,
    spellcheck: "false",
    placeholder: '{"role": "editor"}',
  });
  claimsInput.value = caller.claims;
  const callerError = h("p", { class: "ops-error", role: "alert", hidden: true });
  const userFields = h("div", { class: "ops-user-fields" }, [
    h("label", { for: "ops-caller-uid" }, "uid"),
    uidInput,
    h("label", { for: "ops-caller-email" }, "email"),
    emailInput,
    h("label", { for: "ops-caller-verified" }, "email verified"),
    verifiedInput,
    h("label", { for: "ops-caller-claims" }, "extra claims (JSON object)"),
    claimsInput,
  ]);
  // An Auth emulator user: picked from the emulator's users; each run signs in as them.
  const authUserSelect = h("select", { "data-testid": "caller-auth-user", id: "ops-caller-auth-user" });
  const authUsersReload = h("button", { type: "button", "data-testid": "caller-auth-reload" }, "Reload users");
  const authSignedIn = h("p", { class: "ops-muted", "data-testid": "caller-auth-status" });
  const authUserFields = h("div", { class: "ops-user-fields" }, [
    h("label", { for: "ops-caller-auth-user" }, "user"),
    h("div", { class: "ops-row" }, [authUserSelect, authUsersReload]),
  ]);
  let authUsersLoaded = false;
  async function loadAuthUsers() {
    if (!authClient) return;
    authUsersLoaded = true;
    const users = [];
    let token = null;
    let failure = null;
    try {
      // The first 1000 users (sorted by uid) are plenty for a picker.
      for (let page = 0; page < 10; page++) {
        const answer = await authClient.listUsers(token, 100);
        if (!answer.ok) {
          failure = `the Auth emulator's users: HTTP ${answer.status}`;
          break;
        }
        users.push(...((answer.body && answer.body.users) || []));
        token = nextPageToken(answer.body, 100);
        if (!token) break;
      }
    } catch (error) {
      failure = `the Auth emulator did not answer: ${error.message}`;
    }
    if (unmounted) return;
    const chosen = caller.authUid;
    authUserSelect.replaceChildren(
      h("option", { value: "" }, users.length ? "choose a user…" : "no users: add one in the Authentication view"),
      ...users.map((user) => {
        const details = [user.email, user.displayName, user.disabled ? "disabled" : null].filter(Boolean).join(" · ");
        return h("option", { value: user.localId }, details ? `${user.localId} (${details})` : user.localId);
      }),
    );
    if (chosen && !users.some((user) => user.localId === chosen)) {
      authUserSelect.append(h("option", { value: chosen }, `${chosen} (not found)`));
    }
    authUserSelect.value = chosen || "";
    if (failure) ctx.toast(failure, "error");
    callerChanged();
  }
  authUsersReload.addEventListener("click", loadAuthUsers);

  /** Resolves a caller's token: signs in as an Auth emulator user when the caller is one. */
  async function resolveToken(token) {
    if (!token.signInAs) return token;
    authSignedIn.textContent = `signing in as ${token.signInAs}…`;
    const signedIn = await authClient.signInAs(token.signInAs);
    if (signedIn.error) {
      authSignedIn.textContent = "";
      return { error: `signing in as ${token.signInAs} failed: ${signedIn.error}` };
    }
    let claims = "";
    try {
      const { claims: decoded } = decodeToken(signedIn.idToken);
      const shown = { ...decoded };
      for (const key of ["iss", "aud", "auth_time", "iat", "exp", "firebase", "user_id", "sub"]) delete shown[key];
      claims = ` · claims ${JSON.stringify(shown)}`;
    } catch {
      claims = "";
    }
    authSignedIn.textContent = `signed in as ${token.signInAs} through accounts:signInWithCustomToken${claims}`;
    return { token: signedIn.idToken };
  }

  const callerNote = h("p", { class: "ops-muted" });
  function callerChanged() {
    caller = {
      mode: modeSelect.value,
      uid: uidInput.value,
      email: emailInput.value,
      emailVerified: verifiedInput.checked,
      claims: claimsInput.value,
      authUid: authUsersLoaded && authUserSelect.options.length ? authUserSelect.value : caller.authUid || "",
    };
    saveCaller(storage(), caller);
    userFields.hidden = caller.mode !== "user";
    authUserFields.hidden = caller.mode !== "authUser";
    authSignedIn.hidden = caller.mode !== "authUser";
    if (caller.mode === "authUser" && !authUsersLoaded) loadAuthUsers();
    const notes = {
      unauthenticated: "Runs as an app without a signed-in user (no X-Firebase-Auth-Token).",
      user: "Runs as a signed-in user: an unsigned ID token is sent in X-Firebase-Auth-Token.",
      authUser:
        "Runs as one of the Auth emulator's users: the console signs in as them (accounts:signInWithCustomToken) and sends the ID token the Auth emulator issues, with the user's custom claims.",
      admin: "Runs the operation's source through executeGraphql: @auth is not checked.",
    };
    callerNote.textContent = notes[caller.mode];
    const token = tokenForCaller(caller, model.project);
    callerError.hidden = !token.error;
    callerError.textContent = token.error || "";
  }
  for (const input of [modeSelect, uidInput, emailInput, verifiedInput, claimsInput, authUserSelect]) {
    const kind = input === modeSelect || input === verifiedInput || input === authUserSelect ? "change" : "input";
    input.addEventListener(kind, callerChanged);
  }
  callerChanged();
  detail.append(
    h("fieldset", { class: "ops-caller" }, [
      h("legend", {}, "Caller"),
      h("div", { class: "ops-row" }, [h("label", { for: "ops-caller-mode" }, "Run as"), modeSelect]),
      callerNote,
      userFields,
      authUserFields,
      authSignedIn,
      callerError,
    ]),
  );

  // MARK: The variables

  let formModel = [];
  const stored = remembered.variables.get(operationKey);
  let values = stored ? JSON.parse(stored) : null;
  const form = h("form", { class: "ops-form", "data-testid": "variables-form", novalidate: true });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    run();
  });
  const jsonToggle = h(
    "button",
    { type: "button", class: "ops-toggle", "data-testid": "variables-mode-json", "aria-pressed": "false" },
    "JSON",
  );
  const jsonEditor = h("textarea", {
    class: "ops-json",
    "data-testid": "variables-json",
    rows: 8,
    spellcheck: "false",
    "aria-label": "Variables as JSON",
  });
  const jsonError = h("p", { class: "ops-error", role: "alert", hidden: true, "data-testid": "variables-json-error" });
  const jsonPane = h("div", { class: "ops-json-pane", hidden: true }, [jsonEditor, jsonError]);
  function setJsonMode(on) {
    jsonPane.hidden = !on;
    jsonToggle.setAttribute("aria-pressed", on ? "true" : "false");
    jsonToggle.textContent = on ? "Hide JSON" : "JSON";
  }
  jsonToggle.addEventListener("click", () => {
    setJsonMode(jsonPane.hidden);
    if (!jsonPane.hidden) jsonEditor.focus();
  });
  setJsonMode(false);

  function syncJSON() {
    const text = variablesText(variablesToSend(formModel, values));
    jsonEditor.value = text;
    jsonError.hidden = true;
    jsonEditor.removeAttribute("aria-invalid");
    remembered.variables.set(operationKey, JSON.stringify(values));
  }
  jsonEditor.addEventListener("input", () => {
    const parsed = parseVariablesText(jsonEditor.value);
    if (!parsed.ok) {
      jsonError.hidden = false;
      jsonError.textContent = `Variables JSON: ${parsed.error}`;
      jsonEditor.setAttribute("aria-invalid", "true");
      return;
    }
    jsonError.hidden = true;
    jsonEditor.removeAttribute("aria-invalid");
    values = parsed.value;
    remembered.variables.set(operationKey, JSON.stringify(values));
    renderForm();
  });

  /** Renders the control for `descriptor` at `path` into a new element. */
  function renderField(descriptor, path, label, meta = {}) {
    const key = fieldKey(path);
    const id = `ops-var-${key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
    const labelChildren = [h("span", { class: "ops-var-name" }, label), h("span", { class: "ops-var-type" }, descriptor.typeText)];
    if (descriptor.required && meta.default === undefined) {
      labelChildren.push(h("abbr", { class: "ops-required", title: "required" }, "*"));
    }
    if (meta.default !== undefined) {
      labelChildren.push(h("span", { class: "ops-default" }, `= ${JSON.stringify(meta.default)}`));
    }

    if (descriptor.kind === "object") {
      const fieldset = h("fieldset", { class: "ops-object", "data-variable-object": key });
      const legend = h("legend", {}, labelChildren);
      const body = h("div", { class: "ops-object-fields" });
      let rendered = false;
      const renderBody = () => {
        if (rendered) return;
        rendered = true;
        for (const field of descriptor.fields()) {
          body.append(
            renderField(field.descriptor, [...path, field.name], field.name, {
              default: field.default,
              description: field.description,
            }),
          );
        }
      };
      const present = getPath(values, path) !== undefined;
      if (descriptor.required || path.length === 1 || present) {
        fieldset.append(legend, body);
        renderBody();
        return fieldset;
      }
      const details = h("details", { class: "ops-object" , "data-variable-object": key }, [h("summary", {}, labelChildren), body]);
      details.addEventListener("toggle", () => {
        if (details.open) renderBody();
      });
      return details;
    }

    if (descriptor.kind === "list") {
      const fieldset = h("fieldset", { class: "ops-list-field", "data-variable-list": key });
      fieldset.append(h("legend", {}, labelChildren));
      const itemsBox = h("ol", { class: "ops-list-items", start: 0 });
      const add = h("button", { type: "button", class: "ops-small", "data-add-item": key }, "Add item");
      const renderItems = (focusIndex = null) => {
        itemsBox.replaceChildren();
        const list = getPath(values, path);
        const array = Array.isArray(list) ? list : [];
        array.forEach((_, index) => {
          const itemPath = [...path, index];
          const control = renderField(descriptor.item, itemPath, `${label}[${index}]`);
          const remove = h(
            "button",
            { type: "button", class: "ops-small", "data-remove-item": fieldKey(itemPath), "aria-label": `Remove ${label}[${index}]` },
            "Remove",
          );
          remove.addEventListener("click", () => {
            const current = getPath(values, path);
            if (Array.isArray(current)) current.splice(index, 1);
            renderItems();
            syncJSON();
            add.focus();
          });
          itemsBox.append(h("li", {}, [control, remove]));
        });
        if (focusIndex !== null) {
          const target = itemsBox.querySelector(`[data-variable="${CSS.escape(fieldKey([...path, focusIndex]))}"]`);
          if (target) target.focus();
        }
      };
      add.addEventListener("click", () => {
        let current = getPath(values, path);
        if (!Array.isArray(current)) {
          current = [];
          setPath(values, path, current);
        }
        current.push(newItemValue(descriptor.item));
        renderItems(current.length - 1);
        syncJSON();
      });
      renderItems();
      fieldset.append(itemsBox, add);
      return fieldset;
    }

    const wrapper = h("div", { class: "ops-field" });
    const message = h("span", { class: "ops-field-error", role: "alert", hidden: true });
    let control;
    const current = getPath(values, path);
    switch (descriptor.widget) {
      case "select": {
        control = h("select", {});
        control.append(h("option", { value: "" }, descriptor.required ? "— choose —" : "— not set —"));
        for (const option of descriptor.options) control.append(h("option", { value: option }, option));
        control.value = controlText(descriptor, current);
        break;
      }
      case "checkbox": {
        control = h("input", { type: "checkbox" });
        control.checked = current === true;
        control.indeterminate = current === undefined || current === null;
        break;
      }
      case "json": {
        control = h("textarea", { rows: 2, spellcheck: "false", placeholder: "JSON" });
        control.value = controlText(descriptor, current);
        break;
      }
      default: {
        const types = { int: "number", float: "number", date: "date", datetime: "datetime-local" };
        control = h("input", { type: types[descriptor.widget] || "text", autocomplete: "off", spellcheck: "false" });
        if (descriptor.widget === "int") control.step = "1";
        if (descriptor.widget === "float") control.step = "any";
        if (descriptor.widget === "datetime") control.step = "1";
        if (descriptor.widget === "int64") control.inputMode = "numeric";
        const placeholders = { UUID: "UUID", Int64: "integer (64-bit)", Date: "YYYY-MM-DD" };
        if (placeholders[descriptor.typeName]) control.placeholder = placeholders[descriptor.typeName];
        control.value = controlText(descriptor, current);
      }
    }
    control.id = id;
    control.setAttribute("data-variable", key);
    if (descriptor.required && meta.default === undefined) control.setAttribute("aria-required", "true");
    if (meta.description) control.title = meta.description;
    const update = () => {
      const parsed = parseControl(descriptor, descriptor.widget === "checkbox" ? control.checked : control.value);
      if (parsed.error) {
        message.hidden = false;
        message.textContent = parsed.error;
        control.setAttribute("aria-invalid", "true");
        return;
      }
      message.hidden = true;
      control.removeAttribute("aria-invalid");
      if (descriptor.widget === "checkbox") control.indeterminate = false;
      setPath(values, path, parsed.value);
      syncJSON();
    };
    control.addEventListener(descriptor.widget === "checkbox" || descriptor.widget === "select" ? "change" : "input", update);
    const labelElement = h("label", { for: id, class: "ops-label" }, labelChildren);
    wrapper.append(labelElement, control);
    if (!descriptor.required && typeof path[path.length - 1] !== "number") {
      const clear = h(
        "button",
        { type: "button", class: "ops-small ops-clear", "aria-label": `Clear ${key}`, title: "Leave out" },
        "×",
      );
      clear.addEventListener("click", () => {
        setPath(values, path, undefined);
        if (descriptor.widget === "checkbox") {
          control.checked = false;
          control.indeterminate = true;
        } else {
          control.value = "";
        }
        message.hidden = true;
        control.removeAttribute("aria-invalid");
        syncJSON();
      });
      wrapper.append(clear);
    }
    wrapper.append(message);
    return wrapper;
  }

  function renderForm() {
    form.replaceChildren();
    if (formModel.length === 0) {
      form.append(h("p", { class: "ops-muted" }, "This operation has no variables."));
      return;
    }
    for (const entry of formModel) {
      form.append(renderField(entry.descriptor, [entry.name], entry.name, { default: entry.default }));
    }
  }

  form.append(h("p", { class: "ops-muted" }, "Loading the schema's types…"));
  detail.append(
    h("section", { class: "ops-variables", "aria-label": "Variables" }, [
      h("div", { class: "ops-section-head" }, [h("h3", {}, "Variables"), jsonToggle]),
      form,
      jsonPane,
    ]),
  );

  function setupForm(introspection) {
    if (unmounted) return;
    formModel = buildFormModel(selected.variables || [], introspection);
    if (values === null) values = initialValues(formModel);
    renderForm();
    syncJSON();
  }
  Promise.resolve()
    .then(() => ctx.introspection())
    .then(setupForm, (error) => {
      if (unmounted) return;
      setupForm(null);
      form.prepend(h("p", { class: "ops-error" }, `The schema's types are unavailable (${error.message}); objects are edited as JSON.`));
    });

  // MARK: Run and subscribe

  const runButton = h("button", { type: "button", class: "ops-primary", "data-testid": "operation-run" }, "Run");
  const subscribeButton = h("button", { type: "button", "data-testid": "operation-subscribe" }, "Subscribe");
  const unsubscribeButton = h("button", { type: "button", "data-testid": "operation-unsubscribe", hidden: true }, "Unsubscribe");
  const actions = h("div", { class: "ops-actions" }, [runButton]);
  if (isQuery) actions.append(subscribeButton, unsubscribeButton);
  const missingNote = h("span", { class: "ops-muted", "aria-live": "polite" });
  actions.append(missingNote);
  detail.append(actions);

  const status = h("span", { class: "ops-status", "data-testid": "result-status" });
  const time = h("span", { class: "ops-muted", "data-testid": "result-time" });
  const errorsList = h("ul", { class: "ops-errors", "data-testid": "result-errors" });
  const resultJSON = h("pre", { class: "ops-code ops-result", "data-testid": "result-json", tabindex: "0" });
  const sql = h("pre", { class: "ops-code ops-sql", "data-testid": "result-sql", tabindex: "0" });
  const resultSection = h("section", { class: "ops-answer", "aria-label": "Result", hidden: true }, [
    h("div", { class: "ops-section-head" }, [h("h3", {}, "Result"), status, time]),
    errorsList,
    resultJSON,
    h("h3", {}, "SQL"),
    sql,
  ]);
  detail.append(resultSection);

  const subscriptionState = h("span", { class: "ops-muted", "data-testid": "subscription-state" });
  const subscriptionErrors = h("ul", { class: "ops-errors", "data-testid": "subscription-errors" });
  const subscriptionResult = h("pre", {
    class: "ops-code ops-result",
    "data-testid": "subscription-result",
    "data-updates": "0",
    tabindex: "0",
    "aria-live": "polite",
  });
  const subscriptionSection = h("section", { class: "ops-subscription", "aria-label": "Subscription", hidden: true }, [
    h("div", { class: "ops-section-head" }, [h("h3", {}, "Subscription"), subscriptionState]),
    subscriptionErrors,
    subscriptionResult,
  ]);
  detail.append(subscriptionSection);

  function renderErrors(list, errors) {
    list.replaceChildren();
    for (const error of errors || []) {
      const code = error && error.extensions && error.extensions.code;
      const path = Array.isArray(error && error.path) && error.path.length ? error.path.join(".") : null;
      const location =
        Array.isArray(error && error.locations) && error.locations.length
          ? `${error.locations[0].line}:${error.locations[0].column}`
          : null;
      list.append(
        h("li", {}, [
          code ? h("span", { class: "ops-error-code" }, code) : null,
          h("span", { class: "ops-error-message" }, error && error.message !== undefined ? String(error.message) : JSON.stringify(error)),
          path ? h("span", { class: "ops-error-path" }, `at ${path}`) : null,
          location ? h("span", { class: "ops-error-path" }, `(${location})`) : null,
        ]),
      );
    }
  }

  /** The variables to send, or null (with the reason shown) when the JSON editor holds invalid text. */
  function currentVariables() {
    if (!jsonPane.hidden) {
      const parsed = parseVariablesText(jsonEditor.value);
      if (!parsed.ok) {
        jsonError.hidden = false;
        jsonError.textContent = `Variables JSON: ${parsed.error}`;
        jsonEditor.focus();
        return null;
      }
    }
    if (form.querySelector("[aria-invalid=true]")) {
      missingNote.textContent = "Fix the highlighted variables first.";
      return null;
    }
    const toSend = variablesToSend(formModel, values || {});
    const missing = missingRequired(formModel, toSend);
    missingNote.textContent = missing.length ? `Missing required: ${missing.join(", ")}` : "";
    return toSend;
  }

  let runSequence = 0;
  async function run() {
    const variables = currentVariables();
    if (variables === null) return;
    const sequence = ++runSequence;
    runButton.disabled = true;
    let token;
    try {
      token = await resolveToken(tokenForCaller(caller, model.project));
    } catch (error) {
      token = { error: `the Auth emulator did not answer: ${error.message}` };
    }
    if (unmounted || sequence !== runSequence) return;
    if (token.error) {
      callerError.hidden = false;
      callerError.textContent = token.error;
      runButton.disabled = false;
      return;
    }
    callerError.hidden = true;
    runButton.setAttribute("aria-busy", "true");
    resultSection.hidden = false;
    status.textContent = "running…";
    status.removeAttribute("data-status");
    try {
      const answer =
        caller.mode === "admin"
          ? await executeGraphql(model, selected.source, variables, { operationName: selected.name })
          : await executeConnector(model, selected.connector, selected.name, selected.kind, variables, token.token);
      if (unmounted || sequence !== runSequence) return;
      showAnswer(answer);
      showSQL(variables, sequence);
    } catch (error) {
      if (unmounted || sequence !== runSequence) return;
      status.setAttribute("data-status", "0");
      status.textContent = "unreachable";
      status.className = "ops-status ops-status-error";
      time.textContent = "";
      renderErrors(errorsList, [{ message: `The emulator did not answer: ${error.message}` }]);
      resultJSON.textContent = "";
    } finally {
      if (!unmounted && sequence === runSequence) {
        runButton.disabled = false;
        runButton.removeAttribute("aria-busy");
      }
    }
  }

  function showAnswer(answer) {
    const body = answer.body;
    const errors = answerErrors(body);
    const firstCode = errors.length && errors[0].extensions && errors[0].extensions.code;
    const code = answer.status === 200 ? (errors.length && firstCode ? firstCode : "OK") : firstCode || "ERROR";
    status.setAttribute("data-status", String(answer.status));
    status.textContent = `${answer.status} ${code}`;
    status.className = `ops-status ${answer.status === 200 && errors.length === 0 ? "ops-status-ok" : "ops-status-error"}`;
    time.textContent = formatTime(answer.ms);
    renderErrors(errorsList, errors);
    if (body && typeof body === "object" && "data" in body) {
      resultJSON.textContent = JSON.stringify(body.data, null, 2);
    } else if (body !== null && body !== undefined) {
      resultJSON.textContent = JSON.stringify(body, null, 2);
    } else {
      resultJSON.textContent = answer.text || "";
    }
  }

  async function showSQL(variables, sequence) {
    if (!isQuery) {
      sql.textContent = "-- Explain covers queries: a mutation's statements are not shown.";
      return;
    }
    sql.textContent = "-- explaining…";
    try {
      const answer = await explain(selected.connector, selected.name, variables);
      if (unmounted || sequence !== runSequence) return;
      if (answer.status !== 200 || !answer.body) {
        const [first] = answerErrors(answer.body);
        const message = first ? first.message : `HTTP ${answer.status}`;
        sql.textContent = `-- explain failed: ${message}`;
        return;
      }
      const statements = Array.isArray(answer.body.statements) ? answer.body.statements : [];
      if (statements.length === 0) {
        sql.textContent = "-- no statements";
        return;
      }
      sql.textContent = statements
        .map((statement) => {
          const parameters = Array.isArray(statement.parameters) && statement.parameters.length
            ? `\n-- parameters: ${JSON.stringify(statement.parameters)}`
            : "";
          return `${statement.sql};${parameters}`;
        })
        .join("\n\n");
    } catch (error) {
      if (!unmounted) sql.textContent = `-- explain failed: ${error.message}`;
    }
  }

  runButton.addEventListener("click", run);

  function stopSubscription(reason) {
    if (subscription) {
      subscription.cancel();
      subscription = null;
    }
    subscribeButton.disabled = false;
    subscribeButton.hidden = false;
    unsubscribeButton.hidden = true;
    if (reason) subscriptionState.textContent = reason;
  }

  async function subscribe() {
    const variables = currentVariables();
    if (variables === null) return;
    const wanted = caller.mode === "user" || caller.mode === "authUser" ? tokenForCaller(caller, model.project) : { token: null };
    let token;
    try {
      token = await resolveToken(wanted);
    } catch (error) {
      token = { error: `the Auth emulator did not answer: ${error.message}` };
    }
    if (unmounted) return;
    if (token.error) {
      callerError.hidden = false;
      callerError.textContent = token.error;
      return;
    }
    stopSubscription();
    subscriptionSection.hidden = false;
    subscriptionResult.textContent = "";
    subscriptionResult.setAttribute("data-updates", "0");
    subscriptionErrors.replaceChildren();
    subscriptionState.textContent =
      caller.mode === "admin" ? "connecting… (the stream has no admin caller: subscribed unauthenticated)" : "connecting…";
    const client = sharedStreamClient(streamURL(model, window.location));
    subscription = client.subscribe(
      {
        name: connectorName(model, selected.connector),
        operationName: selected.name,
        variables,
        token: token.token,
      },
      {
        onResult(result) {
          if (unmounted) return;
          subscriptionResult.setAttribute("data-updates", String(result.updates));
          subscriptionResult.textContent = result.data === undefined ? "" : JSON.stringify(result.data, null, 2);
          renderErrors(subscriptionErrors, result.errors);
          subscriptionState.textContent = `live · ${result.updates} ${result.updates === 1 ? "response" : "responses"} · last at ${new Date().toLocaleTimeString()}`;
        },
        onState(state) {
          if (unmounted) return;
          if (state === "reconnecting") subscriptionState.textContent = "reconnecting…";
          else if (state === "open" && subscriptionResult.getAttribute("data-updates") === "0") {
            subscriptionState.textContent = "subscribed, waiting for the first response…";
          }
        },
        onCancelled() {
          if (unmounted) return;
          subscription = null;
          stopSubscription("cancelled by the emulator");
        },
      },
    );
    subscribeButton.disabled = true;
    subscribeButton.hidden = true;
    unsubscribeButton.hidden = false;
    unsubscribeButton.focus();
  }

  subscribeButton.addEventListener("click", subscribe);
  unsubscribeButton.addEventListener("click", () => {
    stopSubscription("unsubscribed");
    subscribeButton.focus();
  });

  // Ctrl+Enter runs from anywhere in the view.
  function onKey(event) {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      run();
    }
  }
  root.addEventListener("keydown", onKey);

  return {
    unmount() {
      unmounted = true;
      stopSubscription();
      root.removeEventListener("keydown", onKey);
    },
  };
}
