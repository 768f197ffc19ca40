// Unsigned ID tokens for calling connector operations as a signed-in user, and the caller settings the
// Operations view keeps in localStorage. Pure: no DOM; node imports it in the unit tests.
//
// The emulator decodes the `X-Firebase-Auth-Token` header without verifying it, so the console signs in by
// sending `base64url(header) + "." + base64url(claims) + "."` with the header `{"alg":"none","typ":"JWT"}`.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Encodes text (UTF-8) as base64url without padding. */
export function base64urlEncode(text) {
  const bytes = encoder.encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Decodes base64url (padded or not) to text (UTF-8). */
export function base64urlDecode(encoded) {
  let base64 = encoded.replace(/-/g, "+").replace(/_/g, "/");
  while (base64.length % 4 !== 0) base64 += "=";
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decoder.decode(bytes);
}

/**
 * Parses the "extra claims" text: empty text is `{}`; otherwise it must be a JSON object.
 * Returns `{ok: true, value}` or `{ok: false, error}`.
 */
export function parseExtraClaims(text) {
  const trimmed = (text || "").trim();
  if (trimmed === "") return { ok: true, value: {} };
  let value;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, error: `claims are not JSON: ${error.message}` };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, error: "claims must be a JSON object" };
  }
  return { ok: true, value };
}

/**
 * The claims of a signed-in user, as Firebase Auth issues them for an email/password account.
 *
 * `extra` claims are added last, so they can override any standard claim except `sub` and `user_id`.
 * `nowSeconds` defaults to the current time; the token is valid for an hour.
 */
export function buildClaims({ uid, email = "", emailVerified = false, extra = {}, project = "p", nowSeconds }) {
  const iat = nowSeconds === undefined ? Math.floor(Date.now() / 1000) : nowSeconds;
  const claims = {
    iss: `https://securetoken.google.com/${project}`,
    aud: project,
    auth_time: iat,
    iat,
    exp: iat + 3600,
    firebase: { sign_in_provider: "password", identities: {} },
  };
  if (email) claims.email = email;
  claims.email_verified = Boolean(emailVerified);
  Object.assign(claims, extra);
  claims.sub = uid;
  claims.user_id = uid;
  return claims;
}

/** The unsigned JWT carrying `claims`. */
export function unsignedToken(claims) {
  const header = base64urlEncode(JSON.stringify({ alg: "none", typ: "JWT" }));
  return `${header}.${base64urlEncode(JSON.stringify(claims))}.`;
}

/** Decodes a JWT's header and claims (no verification). Throws when it is not three dot-separated parts. */
export function decodeToken(token) {
  const parts = String(token).split(".");
  if (parts.length !== 3) throw new Error("a JWT has three dot-separated parts");
  return { header: JSON.parse(base64urlDecode(parts[0])), claims: JSON.parse(base64urlDecode(parts[1])) };
}

/** The caller the Operations view starts with. */
export const defaultCaller = Object.freeze({
  mode: "unauthenticated",
  uid: "user-1",
  email: "user-1@example.com",
  emailVerified: true,
  claims: "{}",
  authUid: "",
});

/**
 * The caller modes: no user, a hand-made user (an unsigned token built here), a user of the Auth emulator
 * (`authUser`: the console signs in as `authUid` and sends the ID token the Auth emulator issues), or admin.
 */
const callerModes = new Set(["unauthenticated", "user", "authUser", "admin"]);

/** The storage key of the caller settings. */
export const callerStorageKey = "dataconnect-console.caller";

/** Reads the caller settings from `storage` (a localStorage), falling back to `defaultCaller` field by field. */
export function loadCaller(storage) {
  let stored = {};
  try {
    stored = JSON.parse((storage && storage.getItem(callerStorageKey)) || "{}") || {};
  } catch {
    stored = {};
  }
  return {
    mode: callerModes.has(stored.mode) ? stored.mode : defaultCaller.mode,
    uid: typeof stored.uid === "string" ? stored.uid : defaultCaller.uid,
    email: typeof stored.email === "string" ? stored.email : defaultCaller.email,
    emailVerified: typeof stored.emailVerified === "boolean" ? stored.emailVerified : defaultCaller.emailVerified,
    claims: typeof stored.claims === "string" ? stored.claims : defaultCaller.claims,
    authUid: typeof stored.authUid === "string" ? stored.authUid : defaultCaller.authUid,
  };
}

/** Writes the caller settings to `storage`; storage failures (quota, private mode) are ignored. */
export function saveCaller(storage, caller) {
  try {
    if (storage) storage.setItem(callerStorageKey, JSON.stringify(caller));
  } catch {
    // Settings are a convenience: the page works without them.
  }
}

/**
 * The token for a caller: `{token: null}` when unauthenticated or admin, `{token}` for a hand-made user,
 * `{signInAs: uid}` for an Auth emulator user (the caller signs in to get the token), or `{error}` when the
 * uid is empty or the extra claims do not parse.
 */
export function tokenForCaller(caller, project, nowSeconds) {
  if (caller.mode === "authUser") {
    const authUid = (caller.authUid || "").trim();
    return authUid === "" ? { error: "choose one of the Auth emulator's users" } : { signInAs: authUid };
  }
  if (caller.mode !== "user") return { token: null };
  const uid = (caller.uid || "").trim();
  if (uid === "") return { error: "a signed-in caller needs a uid" };
  const extra = parseExtraClaims(caller.claims);
  if (!extra.ok) return { error: extra.error };
  const claims = buildClaims({
    uid,
    email: (caller.email || "").trim(),
    emailVerified: caller.emailVerified,
    extra: extra.value,
    project,
    nowSeconds,
  });
  return { token: unsignedToken(claims), claims };
}
