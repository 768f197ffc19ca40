import { test } from "node:test";
import assert from "node:assert/strict";
import {
  base64urlDecode,
  base64urlEncode,
  buildClaims,
  decodeToken,
  loadCaller,
  parseExtraClaims,
  saveCaller,
  tokenForCaller,
  unsignedToken,
} from "../Console/auth-token.js";

test("the token is an unsigned JWT whose parts decode to the header and the claims", () => {
  const claims = buildClaims({
    uid: "alice",
    email: "alice@example.com",
    emailVerified: true,
    extra: { role: "admin", tier: 3 },
    project: "demo",
    nowSeconds: 1_700_000_000,
  });
  const token = unsignedToken(claims);
  const parts = token.split(".");
  assert.equal(parts.length, 3);
  assert.equal(parts[2], "");
  assert.doesNotMatch(token, /[+/=]/);
  assert.deepEqual(JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8")), { alg: "none", typ: "JWT" });
  const decoded = JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
  assert.deepEqual(decoded, {
    iss: "https://securetoken.google.com/demo",
    aud: "demo",
    auth_time: 1_700_000_000,
    iat: 1_700_000_000,
    exp: 1_700_003_600,
    firebase: { sign_in_provider: "password", identities: {} },
    email: "alice@example.com",
    email_verified: true,
    role: "admin",
    tier: 3,
    sub: "alice",
    user_id: "alice",
  });
  assert.deepEqual(decodeToken(token), { header: { alg: "none", typ: "JWT" }, claims: decoded });
});

test("extra claims override standard claims but never the uid", () => {
  const claims = buildClaims({ uid: "bob", extra: { email_verified: true, sub: "mallory" }, nowSeconds: 1 });
  assert.equal(claims.sub, "bob");
  assert.equal(claims.user_id, "bob");
  assert.equal(claims.email_verified, true);
  assert.equal("email" in claims, false);
});

test("base64url round-trips non-ASCII text", () => {
  const text = '{"name":"Zoë 🎬"}';
  assert.equal(base64urlDecode(base64urlEncode(text)), text);
  assert.equal(base64urlEncode(text), Buffer.from(text, "utf8").toString("base64url"));
});

test("extra claims must be a JSON object", () => {
  assert.deepEqual(parseExtraClaims(""), { ok: true, value: {} });
  assert.deepEqual(parseExtraClaims(' {"a": [1]} '), { ok: true, value: { a: [1] } });
  assert.equal(parseExtraClaims("[1]").ok, false);
  assert.equal(parseExtraClaims("{a:1}").ok, false);
  assert.match(parseExtraClaims("{a:1}").error, /not JSON/);
});

test("a caller gets a token only when signed in with a uid and valid claims", () => {
  assert.deepEqual(tokenForCaller({ mode: "unauthenticated" }, "p"), { token: null });
  assert.deepEqual(tokenForCaller({ mode: "admin" }, "p"), { token: null });
  assert.match(tokenForCaller({ mode: "user", uid: " ", claims: "" }, "p").error, /uid/);
  assert.match(tokenForCaller({ mode: "user", uid: "u", claims: "nope" }, "p").error, /JSON/);
  const signed = tokenForCaller({ mode: "user", uid: "u1", email: "", emailVerified: false, claims: '{"x":1}' }, "proj", 5);
  assert.deepEqual(decodeToken(signed.token).claims, signed.claims);
  assert.equal(signed.claims.x, 1);
  assert.equal(signed.claims.aud, "proj");
});

test("caller settings persist and fall back field by field", () => {
  const map = new Map();
  const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v) };
  assert.equal(loadCaller(storage).mode, "unauthenticated");
  saveCaller(storage, { mode: "user", uid: "zed", email: "z@x.y", emailVerified: false, claims: '{"a":1}' });
  assert.deepEqual(loadCaller(storage), {
    mode: "user",
    uid: "zed",
    email: "z@x.y",
    emailVerified: false,
    claims: '{"a":1}',
    authUid: "",
  });
  map.set("dataconnect-console.caller", '{"mode": "root", "uid": 7}');
  const fallback = loadCaller(storage);
  assert.equal(fallback.mode, "unauthenticated");
  assert.equal(fallback.uid, "user-1");
  map.set("dataconnect-console.caller", "{");
  assert.equal(loadCaller(storage).mode, "unauthenticated");
});

test("an Auth emulator user is signed in as, not made up", () => {
  const map = new Map();
  const storage = { getItem: (k) => map.get(k) ?? null, setItem: (k, v) => map.set(k, v) };
  saveCaller(storage, { ...loadCaller(storage), mode: "authUser", authUid: "real-uid" });
  const caller = loadCaller(storage);
  assert.equal(caller.mode, "authUser");
  assert.equal(caller.authUid, "real-uid");
  assert.deepEqual(tokenForCaller(caller, "proj"), { signInAs: "real-uid" });
  assert.deepEqual(tokenForCaller({ ...caller, authUid: "  " }, "proj"), {
    error: "choose one of the Auth emulator's users",
  });
});
