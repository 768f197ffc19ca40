// The Auth emulator as the console calls it (the Identity Toolkit REST API and the emulator's own
// `/emulator/v1/projects/{p}/…` paths), and the formatting and validation the Authentication view needs.
// Pure of the DOM: node imports it in the unit tests, with a stub in place of `send`.
//
// Admin calls carry `Authorization: Bearer owner`, which the Auth emulator takes as a privileged (Admin SDK)
// caller; client calls carry `?key=…`, which it accepts whatever the key.

import { base64urlEncode } from "./auth-token.js";

/** The header the Auth emulator takes as an admin caller. */
export const ADMIN_HEADERS = Object.freeze({ Authorization: "Bearer owner" });

/** Users per page of the list (`accounts:batchGet` `maxResults`). */
export const USERS_PAGE_SIZE = 20;

/** The longest `customAttributes` the Auth emulator accepts, in characters of its JSON text. */
export const CLAIMS_MAX_LENGTH = 1000;

/** Claims a custom claims object may not set: the ID token's own (as the Auth emulator and production refuse). */
export const FORBIDDEN_CLAIMS = Object.freeze([
  "iss", "aud", "sub", "iat", "exp", "nbf", "jti", "nonce", "azp", "acr", "amr", "cnf", "auth_time",
  "firebase", "at_hash", "c_hash",
]);

/** The audience of a custom token (https://cloud.google.com/identity-platform/docs/use-rest-api). */
export const CUSTOM_TOKEN_AUDIENCE =
  "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit";

const MINIMUM_PASSWORD_LENGTH = 6;

/** The Auth emulator's project id from `/emulator/info`, or null when the emulator serves no auth. */
export function authProjectId(info) {
  const auth = info && typeof info === "object" ? info.auth : null;
  if (!auth || typeof auth !== "object") return null;
  return typeof auth.projectId === "string" && auth.projectId !== "" ? auth.projectId : null;
}

/** `/identitytoolkit.googleapis.com/v1/projects/{p}/accounts` followed by `suffix` (e.g. `:batchGet`). */
export function adminAccountsPath(projectId, suffix = "") {
  return `/identitytoolkit.googleapis.com/v1/projects/${encodeURIComponent(projectId)}/accounts${suffix}`;
}

/** `/emulator/v1/projects/{p}/{what}`: `accounts`, `oobCodes` or `config`. */
export function emulatorPath(projectId, what) {
  return `/emulator/v1/projects/${encodeURIComponent(projectId)}/${what}`;
}

/** A client (non-admin) Identity Toolkit path, e.g. `accounts:signInWithCustomToken`, with a placeholder key. */
export function clientPath(method) {
  return `/identitytoolkit.googleapis.com/v1/${method}?key=fake-api-key`;
}

/**
 * The error of an Auth emulator answer as one line, or null when it succeeded.
 *
 * The Identity Toolkit answers `{"error": {"code", "message", "status"}}`, the message being a code with an
 * optional detail (`"WEAK_PASSWORD : Password should be at least 6 characters"`).
 */
export function authErrorMessage(answer) {
  if (!answer) return "no answer";
  if (answer.ok) return null;
  const error = answer.body && typeof answer.body === "object" ? answer.body.error : null;
  if (error && typeof error === "object" && error.message) return String(error.message);
  if (typeof error === "string") return error;
  return `HTTP ${answer.status}`;
}

/**
 * Parses the text of a custom claims editor: empty text is `{}`; otherwise a JSON object of at most
 * `CLAIMS_MAX_LENGTH` characters (once serialized) that sets none of `FORBIDDEN_CLAIMS`.
 * Returns `{ok: true, value, serialized}` or `{ok: false, error}`.
 */
export function parseCustomClaims(text) {
  const trimmed = String(text ?? "").trim();
  if (trimmed === "") return { ok: true, value: {}, serialized: "{}" };
  let value;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, error: `not JSON: ${error.message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "custom claims must be a JSON object" };
  }
  const forbidden = FORBIDDEN_CLAIMS.filter((name) => Object.prototype.hasOwnProperty.call(value, name));
  if (forbidden.length) {
    return { ok: false, error: `reserved claim${forbidden.length > 1 ? "s" : ""}: ${forbidden.join(", ")}` };
  }
  const serialized = JSON.stringify(value);
  if (serialized.length > CLAIMS_MAX_LENGTH) {
    return { ok: false, error: `custom claims are ${serialized.length} characters; at most ${CLAIMS_MAX_LENGTH}` };
  }
  return { ok: true, value, serialized };
}

/** A user's custom claims as an object (`customAttributes` is JSON text); `{}` when none or unreadable. */
export function userClaims(user) {
  const text = user && user.customAttributes;
  if (typeof text !== "string" || text.trim() === "") return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** A user's custom claims as the claims editor shows them: indented JSON, or empty text when there are none. */
export function claimsEditorText(user) {
  const claims = userClaims(user);
  return Object.keys(claims).length ? JSON.stringify(claims, null, 2) : "";
}

/** A user's custom claims on one line, for the table: `{"librarian":true}`, or "" when none. */
export function claimsSummary(user) {
  const claims = userClaims(user);
  return Object.keys(claims).length ? JSON.stringify(claims) : "";
}

/**
 * The sign-in providers of a user, as the Firebase console lists them: `password`, `google.com`, `phone`,
 * or `anonymous` for a user with none (no email, no provider).
 */
export function providerIds(user) {
  const ids = [];
  for (const info of (user && user.providerUserInfo) || []) {
    if (info && info.providerId && !ids.includes(info.providerId)) ids.push(info.providerId);
  }
  if (user && user.passwordHash && !ids.includes("password")) ids.push("password");
  if (ids.length === 0 && user && !user.email && !user.phoneNumber) ids.push("anonymous");
  return ids;
}

/**
 * Formats a millisecond timestamp as the Auth emulator gives them (`createdAt`, `lastLoginAt`: decimal text)
 * as `YYYY-MM-DD HH:MM:SS` in UTC; "" when absent or not a number.
 */
export function formatTimestamp(millis) {
  if (millis === undefined || millis === null || millis === "") return "";
  const number = Number(millis);
  if (!Number.isFinite(number)) return "";
  const date = new Date(number);
  if (Number.isNaN(date.getTime())) return "";
  return date.toISOString().replace("T", " ").replace(/\.\d{3}Z$/, "");
}

/** The values the users table shows for one user (all text but the two flags). */
export function userRow(user) {
  return {
    uid: String(user.localId || ""),
    email: String(user.email || ""),
    displayName: String(user.displayName || ""),
    providers: providerIds(user).join(", "),
    emailVerified: Boolean(user.emailVerified),
    disabled: Boolean(user.disabled),
    claims: claimsSummary(user),
    createdAt: formatTimestamp(user.createdAt),
    lastSignIn: formatTimestamp(user.lastLoginAt ?? user.lastRefreshAt),
  };
}

/**
 * Checks the "new user" form: an anonymous user takes only a display name; otherwise an email, and a
 * password of at least 6 characters when given. Returns `{ok: true, body}` (the admin create request's body)
 * or `{ok: false, error}`.
 */
export function newUserRequest({ email = "", password = "", displayName = "", anonymous = false }) {
  const body = {};
  const name = String(displayName).trim();
  if (name) body.displayName = name;
  if (anonymous) return { ok: true, body };
  const address = String(email).trim();
  if (address === "") return { ok: false, error: "an email is needed (or choose anonymous)" };
  if (!/^[^\s@]+@[^\s@]+$/.test(address)) return { ok: false, error: `${address} is not an email address` };
  body.email = address;
  if (password !== "") {
    if (password.length < MINIMUM_PASSWORD_LENGTH) {
      return { ok: false, error: `the password needs at least ${MINIMUM_PASSWORD_LENGTH} characters` };
    }
    body.password = password;
  }
  return { ok: true, body };
}

/**
 * The next page's token from a `batchGet` answer, or null on the last page. The Auth emulator gives the last
 * uid of the page; an empty or missing token, or a page shorter than asked, ends the list.
 */
export function nextPageToken(body, pageSize = USERS_PAGE_SIZE) {
  const users = (body && body.users) || [];
  const token = body && body.nextPageToken;
  if (!token || users.length < pageSize) return null;
  return String(token);
}

/** The OOB codes as the panel lists them, newest last as the emulator keeps them: `{email, requestType, oobCode, oobLink}`. */
export function oobRows(body) {
  const codes = (body && Array.isArray(body.oobCodes) && body.oobCodes) || [];
  return codes.map((code) => ({
    email: String(code.email || ""),
    requestType: String(code.requestType || ""),
    oobCode: String(code.oobCode || ""),
    oobLink: String(code.oobLink || ""),
  }));
}

/** Whether the project config has improved email privacy (email enumeration protection) on. */
export function improvedEmailPrivacy(config) {
  return Boolean(config && config.emailPrivacyConfig && config.emailPrivacyConfig.enableImprovedEmailPrivacy);
}

/**
 * An unsigned custom token for `uid`, as the Admin SDKs make in emulator mode (`{"alg":"none"}`, no signature):
 * the Auth emulator's `accounts:signInWithCustomToken` accepts it and answers an ID token for the user.
 */
export function unsignedCustomToken(uid, { claims, nowSeconds } = {}) {
  const iat = nowSeconds === undefined ? Math.floor(Date.now() / 1000) : nowSeconds;
  const payload = {
    aud: CUSTOM_TOKEN_AUDIENCE,
    iat,
    exp: iat + 3600,
    iss: "firebase-auth-emulator@example.com",
    sub: "firebase-auth-emulator@example.com",
    uid,
  };
  if (claims && Object.keys(claims).length) payload.claims = claims;
  const header = base64urlEncode(JSON.stringify({ alg: "none", typ: "JWT" }));
  return `${header}.${base64urlEncode(JSON.stringify(payload))}.`;
}

/**
 * The Auth emulator's admin API for one project. `send(method, path, body, headers)` resolves to
 * `{status, ok, body}` (api.js `request`), so tests can pass a stub.
 */
export class AuthAdminClient {
  constructor(projectId, send) {
    this.projectId = projectId;
    this.send = send;
  }

  admin(method, suffix, body) {
    return this.send(method, adminAccountsPath(this.projectId, suffix), body, { ...ADMIN_HEADERS });
  }

  /** One page of users, sorted by uid: `accounts:batchGet?maxResults=N[&nextPageToken=T]`. */
  listUsers(pageToken = null, pageSize = USERS_PAGE_SIZE) {
    const query = new URLSearchParams({ maxResults: String(pageSize) });
    if (pageToken) query.set("nextPageToken", pageToken);
    return this.admin("GET", `:batchGet?${query}`);
  }

  /** Creates a user (`POST …/accounts`, the admin sign-up). */
  createUser(body) {
    return this.admin("POST", "", body);
  }

  /** Sets fields of a user (`accounts:update`): e.g. `{customAttributes: "{…}"}` or `{disableUser: true}`. */
  updateUser(uid, fields) {
    return this.admin("POST", ":update", { localId: uid, ...fields });
  }

  /** Deletes one user (`accounts:delete`). */
  deleteUser(uid) {
    return this.admin("POST", ":delete", { localId: uid });
  }

  /** Deletes every user of the project (`DELETE /emulator/v1/projects/{p}/accounts`). */
  deleteAllUsers() {
    return this.send("DELETE", emulatorPath(this.projectId, "accounts"));
  }

  /** The out-of-band codes (password reset, email verification, sign-in links) the emulator has "sent". */
  oobCodes() {
    return this.send("GET", emulatorPath(this.projectId, "oobCodes"));
  }

  /** The emulator's project config: `{signIn: {allowDuplicateEmails}, emailPrivacyConfig: {…}}`. */
  config() {
    return this.send("GET", emulatorPath(this.projectId, "config"));
  }

  /** Turns improved email privacy on or off; resolves to the config as it is after. */
  setImprovedEmailPrivacy(enabled) {
    return this.send("PATCH", emulatorPath(this.projectId, "config"), {
      emailPrivacyConfig: { enableImprovedEmailPrivacy: Boolean(enabled) },
    });
  }

  /**
   * Signs in as the user `uid` with an unsigned custom token (`accounts:signInWithCustomToken`).
   * Resolves to `{idToken}` or `{error}`; the ID token carries the user's custom claims.
   */
  async signInAs(uid) {
    const answer = await this.send("POST", clientPath("accounts:signInWithCustomToken"), {
      token: unsignedCustomToken(uid),
      returnSecureToken: true,
    });
    const error = authErrorMessage(answer);
    if (error) return { error };
    const idToken = answer.body && answer.body.idToken;
    return idToken ? { idToken } : { error: "the Auth emulator answered no idToken" };
  }
}
