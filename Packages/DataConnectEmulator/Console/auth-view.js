// The Authentication view: the Auth emulator's users (paged through `accounts:batchGet`), a form to create one,
// custom claims edited as JSON, disable/enable, delete one or all, the OOB codes the emulator "sent" with their
// links, and the improved-email-privacy setting. The requests and the formatting live in auth-accounts.js.

import { request } from "./api.js";
import {
  AuthAdminClient,
  USERS_PAGE_SIZE,
  authErrorMessage,
  authProjectId,
  claimsEditorText,
  improvedEmailPrivacy,
  newUserRequest,
  nextPageToken,
  oobRows,
  parseCustomClaims,
  userRow,
} from "./auth-accounts.js";
import { el } from "./dom.js";

const HEADINGS = ["uid", "Email", "Display name", "Providers", "Verified", "Disabled", "Custom claims", "Created", "Last sign-in", ""];

/** Mounts the Authentication view in `root`. */
export function mountAuth(root, ctx) {
  root.replaceChildren();
  const projectId = authProjectId(ctx.info);
  if (!projectId) {
    root.append(
      el("div", { class: "view-header" }, el("h2", { text: "Authentication" })),
      el(
        "p",
        { class: "empty", "data-testid": "auth-off" },
        "The Auth emulator is off: this emulator serves no Identity Toolkit API, so there are no users to show.",
      ),
    );
    return { unmount() {} };
  }

  const client = new AuthAdminClient(projectId, request);
  let mounted = true;
  let users = [];
  // The tokens of the pages before the current one (null for the first page), and the current page's.
  let pageTokens = [];
  let pageToken = null;
  let nextToken = null;
  let editing = null; // the uid whose claims are being edited
  let confirmingDelete = null; // the uid whose delete awaits confirmation

  /** Runs an Auth emulator call; on an error shows it (toast and the inline box) and resolves to null. */
  async function call(what, promise) {
    try {
      const answer = await promise;
      const error = authErrorMessage(answer);
      if (error) {
        showError(`${what}: ${error}`);
        return null;
      }
      return answer;
    } catch (error) {
      showError(`${what}: the emulator did not answer (${error.message})`);
      return null;
    }
  }

  const errorBox = el("div", { class: "error-box", "data-testid": "auth-error", role: "alert", hidden: true });
  function showError(message) {
    if (!mounted) return;
    errorBox.textContent = message;
    errorBox.hidden = false;
    ctx.toast(message, "error");
  }
  function clearError() {
    errorBox.hidden = true;
    errorBox.textContent = "";
  }

  // MARK: The header

  const refreshButton = el("button", { type: "button", "data-testid": "auth-refresh", text: "Refresh", onclick: () => loadAll() });
  const clearAllButton = el("button", {
    type: "button",
    class: "danger",
    "data-testid": "auth-clear-all",
    text: "Delete all users…",
    onclick: () => askClearAll(),
  });
  const clearAllArea = el("span", { class: "auth-clear-all" }, clearAllButton);
  const privacy = el("input", {
    type: "checkbox",
    id: "auth-email-privacy",
    "data-testid": "auth-email-privacy",
    disabled: true,
    onchange: () => setPrivacy(privacy.checked),
  });
  root.append(
    el(
      "div",
      { class: "view-header" },
      el("h2", { text: "Authentication" }),
      el("span", { class: "muted", "data-testid": "auth-project" }, `project ${projectId}`),
      refreshButton,
      clearAllArea,
    ),
    el(
      "p",
      { class: "auth-setting" },
      privacy,
      " ",
      el("label", { for: "auth-email-privacy" }, "Improved email privacy"),
      el(
        "span",
        { class: "muted small" },
        " (email enumeration protection: sign-in errors stop telling whether an email has an account)",
      ),
    ),
    errorBox,
  );

  function askClearAll() {
    const yes = el("button", {
      type: "button",
      class: "danger",
      "data-testid": "auth-clear-all-confirm",
      text: "Delete them all",
      onclick: async () => {
        const answer = await call("Delete all users", client.deleteAllUsers());
        restoreClearAll();
        if (answer) {
          ctx.toast("Deleted every user.", "ok");
          pageTokens = [];
          pageToken = null;
          await loadUsers();
        }
      },
    });
    const no = el("button", { type: "button", "data-testid": "auth-clear-all-cancel", text: "Cancel", onclick: () => restoreClearAll(true) });
    clearAllArea.replaceChildren(el("span", { class: "confirm", text: "Delete every user of the project? " }), yes, no);
    yes.focus();
  }
  function restoreClearAll(focus = false) {
    clearAllArea.replaceChildren(clearAllButton);
    if (focus) clearAllButton.focus();
  }

  async function setPrivacy(enabled) {
    privacy.disabled = true;
    const answer = await call("Improved email privacy", client.setImprovedEmailPrivacy(enabled));
    if (!mounted) return;
    privacy.disabled = false;
    if (answer) {
      privacy.checked = improvedEmailPrivacy(answer.body);
      ctx.toast(`Improved email privacy is ${privacy.checked ? "on" : "off"}.`, "ok");
    } else {
      privacy.checked = !enabled;
    }
  }

  // MARK: Create a user

  const emailInput = el("input", { type: "email", id: "auth-new-email", "data-testid": "auth-new-email", autocomplete: "off" });
  const passwordInput = el("input", {
    type: "password",
    id: "auth-new-password",
    "data-testid": "auth-new-password",
    autocomplete: "new-password",
  });
  const nameInput = el("input", { type: "text", id: "auth-new-name", "data-testid": "auth-new-name", autocomplete: "off" });
  const anonymousInput = el("input", {
    type: "checkbox",
    id: "auth-new-anonymous",
    "data-testid": "auth-new-anonymous",
    onchange: () => {
      emailInput.disabled = anonymousInput.checked;
      passwordInput.disabled = anonymousInput.checked;
    },
  });
  const createError = el("p", { class: "error-box", "data-testid": "auth-create-error", role: "alert", hidden: true });
  const createButton = el("button", { type: "submit", class: "primary", "data-testid": "auth-create", text: "Add user" });
  const createForm = el(
    "form",
    { class: "row-editor auth-create", "data-testid": "auth-create-form", novalidate: true },
    el("h3", { text: "Add a user" }),
    el(
      "div",
      { class: "editor-fields" },
      el("div", { class: "editor-field" }, el("label", { for: "auth-new-email", text: "Email" }), emailInput),
      el("div", { class: "editor-field" }, el("label", { for: "auth-new-password", text: "Password" }), passwordInput),
      el("div", { class: "editor-field" }, el("label", { for: "auth-new-name", text: "Display name" }), nameInput),
      el("div", { class: "editor-field" }, el("label", { for: "auth-new-anonymous", text: "Anonymous" }), anonymousInput),
    ),
    createError,
    el("div", { class: "editor-actions" }, createButton),
  );
  createForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const checked = newUserRequest({
      email: emailInput.value,
      password: passwordInput.value,
      displayName: nameInput.value,
      anonymous: anonymousInput.checked,
    });
    if (!checked.ok) {
      createError.textContent = checked.error;
      createError.hidden = false;
      return;
    }
    createError.hidden = true;
    createButton.disabled = true;
    const answer = await call("Add user", client.createUser(checked.body));
    if (!mounted) return;
    createButton.disabled = false;
    if (!answer) {
      createError.textContent = errorBox.textContent;
      createError.hidden = false;
      return;
    }
    const uid = answer.body && answer.body.localId;
    ctx.toast(`Added user ${uid || ""}.`, "ok");
    emailInput.value = "";
    passwordInput.value = "";
    nameInput.value = "";
    clearError();
    await loadUsers();
  });
  root.append(createForm);

  // MARK: The users

  const tbody = el("tbody");
  const pageInfo = el("span", { class: "page-info", "data-testid": "auth-page-info" });
  const prevButton = el("button", {
    type: "button",
    "data-testid": "auth-prev",
    text: "Previous",
    onclick: () => {
      pageToken = pageTokens.pop() ?? null;
      loadUsers();
    },
  });
  const nextButton = el("button", {
    type: "button",
    "data-testid": "auth-next",
    text: "Next",
    onclick: () => {
      if (!nextToken) return;
      pageTokens.push(pageToken);
      pageToken = nextToken;
      loadUsers();
    },
  });
  root.append(
    el("h3", { class: "section-header", text: "Users" }),
    el(
      "div",
      { class: "grid-wrap" },
      el(
        "table",
        { class: "grid data auth-users", "data-testid": "auth-users" },
        el("thead", {}, el("tr", {}, HEADINGS.map((text) => el("th", { scope: "col", text })))),
        tbody,
      ),
    ),
    el("div", { class: "pager" }, prevButton, pageInfo, nextButton),
  );

  function renderUsers() {
    tbody.replaceChildren();
    for (const user of users) {
      const row = userRow(user);
      tbody.append(userTableRow(user, row));
      if (editing === row.uid) tbody.append(claimsEditorRow(user, row));
    }
    if (users.length === 0) {
      const text = pageTokens.length ? "No more users." : "No users yet: add one above, or sign up from an app.";
      tbody.append(el("tr", { class: "empty-row" }, el("td", { colspan: HEADINGS.length, class: "muted", text })));
    }
    const first = pageTokens.length * USERS_PAGE_SIZE + 1;
    pageInfo.textContent = users.length
      ? `users ${first}–${first + users.length - 1}`
      : "";
    prevButton.disabled = pageTokens.length === 0;
    nextButton.disabled = !nextToken;
  }

  function userTableRow(user, row) {
    const uid = row.uid;
    const actions = el("td", { class: "actions" });
    if (confirmingDelete === uid) {
      const yes = el("button", {
        type: "button",
        class: "danger",
        "data-action": "delete-confirm",
        "data-testid": "auth-delete-confirm",
        text: "Delete",
        onclick: async () => {
          confirmingDelete = null;
          const answer = await call(`Delete ${uid}`, client.deleteUser(uid));
          if (answer) ctx.toast(`Deleted user ${uid}.`, "ok");
          await loadUsers();
        },
      });
      const no = el("button", {
        type: "button",
        "data-action": "delete-cancel",
        text: "Cancel",
        onclick: () => {
          confirmingDelete = null;
          renderUsers();
        },
      });
      actions.append(el("span", { class: "confirm", text: "Delete this user?" }), yes, no);
      queueMicrotask(() => yes.focus());
    } else {
      actions.append(
        el("button", {
          type: "button",
          "data-action": "edit-claims",
          "aria-label": `edit the custom claims of ${uid}`,
          text: "Claims",
          onclick: () => {
            editing = editing === uid ? null : uid;
            renderUsers();
          },
        }),
        el("button", {
          type: "button",
          "data-action": row.disabled ? "enable" : "disable",
          "aria-label": `${row.disabled ? "enable" : "disable"} ${uid}`,
          text: row.disabled ? "Enable" : "Disable",
          onclick: async () => {
            const answer = await call(
              `${row.disabled ? "Enable" : "Disable"} ${uid}`,
              client.updateUser(uid, { disableUser: !row.disabled }),
            );
            if (answer) ctx.toast(`${row.disabled ? "Enabled" : "Disabled"} ${uid}.`, "ok");
            await loadUsers();
          },
        }),
        el("button", {
          type: "button",
          class: "danger",
          "data-action": "delete",
          "aria-label": `delete ${uid}`,
          text: "Delete",
          onclick: () => {
            confirmingDelete = uid;
            renderUsers();
          },
        }),
      );
    }
    const flag = (on, field) =>
      el("td", { "data-field": field }, on ? el("span", { class: `badge ${field === "disabled" ? "status-client" : "status-ok"}`, text: "yes" }) : el("span", { class: "muted", text: "no" }));
    return el(
      "tr",
      { "data-uid": uid, "data-disabled": row.disabled ? "true" : "false" },
      el("td", { class: "mono small", "data-field": "uid", title: uid, text: uid }),
      el("td", { "data-field": "email", text: row.email }),
      el("td", { "data-field": "displayName", text: row.displayName }),
      el("td", { class: "mono small", "data-field": "providers", text: row.providers }),
      flag(row.emailVerified, "emailVerified"),
      flag(row.disabled, "disabled"),
      el("td", { class: "mono small", "data-field": "claims", text: row.claims }),
      el("td", { class: "mono small", "data-field": "createdAt", text: row.createdAt }),
      el("td", { class: "mono small", "data-field": "lastSignIn", text: row.lastSignIn }),
      actions,
    );
  }

  function claimsEditorRow(user, row) {
    const uid = row.uid;
    const id = `auth-claims-${uid.replace(/[^A-Za-z0-9_-]/g, "_")}`;
    const textarea = el("textarea", {
      id,
      rows: 4,
      spellcheck: "false",
      "data-testid": "auth-claims-editor",
      placeholder: '{"librarian": true}',
    });
    textarea.value = claimsEditorText(user);
    const problem = el("p", { class: "error-box", "data-testid": "auth-claims-error", role: "alert", hidden: true });
    const save = el("button", { type: "button", class: "primary", "data-testid": "auth-claims-save", text: "Save claims" });
    const cancel = el("button", {
      type: "button",
      "data-testid": "auth-claims-cancel",
      text: "Cancel",
      onclick: () => {
        editing = null;
        renderUsers();
      },
    });
    function validate() {
      const parsed = parseCustomClaims(textarea.value);
      problem.hidden = parsed.ok;
      problem.textContent = parsed.ok ? "" : parsed.error;
      textarea.setAttribute("aria-invalid", parsed.ok ? "false" : "true");
      save.disabled = !parsed.ok;
      return parsed;
    }
    textarea.addEventListener("input", validate);
    textarea.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        save.click();
      } else if (event.key === "Escape") {
        cancel.click();
      }
    });
    save.addEventListener("click", async () => {
      const parsed = validate();
      if (!parsed.ok) return;
      save.disabled = true;
      const answer = await call(`Claims of ${uid}`, client.updateUser(uid, { customAttributes: parsed.serialized }));
      if (!mounted) return;
      save.disabled = false;
      if (!answer) {
        problem.textContent = errorBox.textContent;
        problem.hidden = false;
        return;
      }
      ctx.toast(`Saved the custom claims of ${uid}.`, "ok");
      editing = null;
      await loadUsers();
    });
    queueMicrotask(() => textarea.focus());
    return el(
      "tr",
      { class: "auth-claims-row", "data-claims-for": uid },
      el(
        "td",
        { colspan: HEADINGS.length },
        el("label", { for: id }, `Custom claims of ${uid} (a JSON object; Ctrl+Enter saves, Escape cancels)`),
        textarea,
        problem,
        el("div", { class: "editor-actions" }, save, cancel),
      ),
    );
  }

  async function loadUsers() {
    const answer = await call("Users", client.listUsers(pageToken));
    if (!mounted) return;
    if (!answer) {
      users = [];
      nextToken = null;
    } else {
      users = (answer.body && answer.body.users) || [];
      nextToken = nextPageToken(answer.body);
      if (users.length === 0 && pageTokens.length) {
        // The page emptied (its users were deleted): go back one.
        pageToken = pageTokens.pop() ?? null;
        return loadUsers();
      }
    }
    renderUsers();
  }

  // MARK: OOB codes

  const oobBody = el("tbody");
  const oobRefresh = el("button", { type: "button", "data-testid": "auth-oob-refresh", text: "Refresh codes", onclick: () => loadOob() });
  root.append(
    el(
      "div",
      { class: "section-header auth-oob-header" },
      el("h3", { text: "Email actions (OOB codes)" }),
      oobRefresh,
    ),
    el(
      "p",
      { class: "muted small" },
      "Password resets, email verifications and sign-in links the emulator would have emailed; apply a code with accounts:resetPassword (oobCode, newPassword) or accounts:update (oobCode), or the SDK's confirmPasswordReset and applyActionCode.",
    ),
    el(
      "div",
      { class: "grid-wrap" },
      el(
        "table",
        { class: "grid compact", "data-testid": "auth-oob-codes" },
        el("thead", {}, el("tr", {}, ["Email", "Action", "Code", "Link"].map((text) => el("th", { scope: "col", text })))),
        oobBody,
      ),
    ),
  );

  async function loadOob() {
    const answer = await call("OOB codes", client.oobCodes());
    if (!mounted) return;
    const rows = answer ? oobRows(answer.body) : [];
    oobBody.replaceChildren(
      ...rows
        .slice()
        .reverse()
        .map((code) =>
          el(
            "tr",
            { "data-oob-code": code.oobCode, "data-request-type": code.requestType },
            el("td", { "data-field": "email", text: code.email }),
            el("td", { class: "mono small", "data-field": "requestType", text: code.requestType }),
            el("td", { class: "mono small", "data-field": "oobCode", text: code.oobCode }),
            el(
              "td",
              { class: "mono small", "data-field": "oobLink" },
              code.oobLink ? el("a", { href: code.oobLink, target: "_blank", rel: "noopener", text: code.oobLink }) : "",
            ),
          ),
        ),
    );
    if (rows.length === 0) {
      oobBody.append(el("tr", { class: "empty-row" }, el("td", { colspan: 4, class: "muted", text: "No codes yet." })));
    }
  }

  async function loadConfig() {
    const answer = await call("Config", client.config());
    if (!mounted || !answer) return;
    privacy.checked = improvedEmailPrivacy(answer.body);
    privacy.disabled = false;
  }

  async function loadAll() {
    clearError();
    await Promise.all([loadUsers(), loadOob(), loadConfig()]);
  }

  renderUsers();
  loadAll();
  return {
    unmount() {
      mounted = false;
    },
  };
}
