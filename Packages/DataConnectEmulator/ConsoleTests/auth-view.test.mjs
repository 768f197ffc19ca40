import { test } from "node:test";
import assert from "node:assert/strict";
import {
  AuthAdminClient,
  CUSTOM_TOKEN_AUDIENCE,
  adminAccountsPath,
  authErrorMessage,
  authProjectId,
  claimsEditorText,
  claimsSummary,
  emulatorPath,
  formatTimestamp,
  improvedEmailPrivacy,
  newUserRequest,
  nextPageToken,
  oobRows,
  parseCustomClaims,
  providerIds,
  unsignedCustomToken,
  userRow,
} from "../Console/auth-accounts.js";
import { decodeToken } from "../Console/auth-token.js";

test("the project id comes from /emulator/info's auth, which is absent when auth is off", () => {
  assert.equal(authProjectId({ auth: { projectId: "demo-project" } }), "demo-project");
  assert.equal(authProjectId({ services: [] }), null);
  assert.equal(authProjectId({ auth: {} }), null);
  assert.equal(authProjectId(null), null);
});

test("paths follow the Identity Toolkit and the emulator's own API", () => {
  assert.equal(adminAccountsPath("demo"), "/identitytoolkit.googleapis.com/v1/projects/demo/accounts");
  assert.equal(adminAccountsPath("demo", ":batchGet"), "/identitytoolkit.googleapis.com/v1/projects/demo/accounts:batchGet");
  assert.equal(emulatorPath("demo", "oobCodes"), "/emulator/v1/projects/demo/oobCodes");
});

test("custom claims must be a JSON object without reserved claims, at most 1000 characters", () => {
  assert.deepEqual(parseCustomClaims(""), { ok: true, value: {}, serialized: "{}" });
  assert.deepEqual(parseCustomClaims(' {"librarian": true} '), {
    ok: true,
    value: { librarian: true },
    serialized: '{"librarian":true}',
  });
  assert.match(parseCustomClaims("{librarian}").error, /^not JSON/);
  assert.equal(parseCustomClaims("[1]").error, "custom claims must be a JSON object");
  assert.equal(parseCustomClaims("null").error, "custom claims must be a JSON object");
  assert.equal(parseCustomClaims('{"sub": "x", "aud": 1, "ok": 2}').error, "reserved claims: aud, sub");
  assert.equal(parseCustomClaims('{"firebase": {}}').error, "reserved claim: firebase");
  const big = JSON.stringify({ text: "x".repeat(1000) });
  assert.match(parseCustomClaims(big).error, /at most 1000/);
});

test("a user's customAttributes text shows as claims, unreadable text as none", () => {
  const user = { customAttributes: '{"librarian":true,"tier":2}' };
  assert.equal(claimsSummary(user), '{"librarian":true,"tier":2}');
  assert.equal(claimsEditorText(user), '{\n  "librarian": true,\n  "tier": 2\n}');
  assert.equal(claimsSummary({ customAttributes: "{" }), "");
  assert.equal(claimsEditorText({}), "");
});

test("providers: the provider infos, password for a hash, anonymous for a user with nothing", () => {
  assert.deepEqual(providerIds({ email: "a@b.c", providerUserInfo: [{ providerId: "password" }] }), ["password"]);
  assert.deepEqual(providerIds({ providerUserInfo: [{ providerId: "google.com" }, { providerId: "google.com" }] }), [
    "google.com",
  ]);
  assert.deepEqual(providerIds({ email: "a@b.c", passwordHash: "h" }), ["password"]);
  assert.deepEqual(providerIds({ localId: "x" }), ["anonymous"]);
  assert.deepEqual(providerIds({ localId: "x", email: "a@b.c" }), []);
});

test("timestamps are the emulator's milliseconds as decimal text, shown in UTC", () => {
  assert.equal(formatTimestamp("1700000000000"), "2023-11-14 22:13:20");
  assert.equal(formatTimestamp(1700000000000), "2023-11-14 22:13:20");
  assert.equal(formatTimestamp(undefined), "");
  assert.equal(formatTimestamp("soon"), "");
});

test("a user row has every column the table shows", () => {
  const row = userRow({
    localId: "u1",
    email: "ann@example.com",
    displayName: "Ann",
    emailVerified: true,
    disabled: false,
    customAttributes: '{"librarian":true}',
    providerUserInfo: [{ providerId: "password" }],
    createdAt: "1700000000000",
    lastLoginAt: "1700000060000",
  });
  assert.deepEqual(row, {
    uid: "u1",
    email: "ann@example.com",
    displayName: "Ann",
    providers: "password",
    emailVerified: true,
    disabled: false,
    claims: '{"librarian":true}',
    createdAt: "2023-11-14 22:13:20",
    lastSignIn: "2023-11-14 22:14:20",
  });
  assert.equal(userRow({ localId: "anon" }).providers, "anonymous");
});

test("the new user form: email and password, or anonymous", () => {
  assert.deepEqual(newUserRequest({ email: " ann@example.com ", password: "secret1", displayName: " Ann " }), {
    ok: true,
    body: { displayName: "Ann", email: "ann@example.com", password: "secret1" },
  });
  assert.deepEqual(newUserRequest({ email: "ann@example.com" }), { ok: true, body: { email: "ann@example.com" } });
  assert.deepEqual(newUserRequest({ anonymous: true, email: "ignored@example.com", displayName: "Ghost" }), {
    ok: true,
    body: { displayName: "Ghost" },
  });
  assert.match(newUserRequest({}).error, /email is needed/);
  assert.match(newUserRequest({ email: "nope" }).error, /not an email address/);
  assert.match(newUserRequest({ email: "a@b.c", password: "12345" }).error, /at least 6/);
});

test("paging ends on a short page or without a token", () => {
  const full = { users: Array.from({ length: 20 }, (_, i) => ({ localId: `u${i}` })), nextPageToken: "u19" };
  assert.equal(nextPageToken(full), "u19");
  assert.equal(nextPageToken({ ...full, nextPageToken: undefined }), null);
  assert.equal(nextPageToken({ users: full.users.slice(0, 3), nextPageToken: "u2" }), null);
  assert.equal(nextPageToken({}), null);
});

test("Identity Toolkit errors read as their message", () => {
  assert.equal(authErrorMessage({ ok: true, status: 200, body: {} }), null);
  assert.equal(
    authErrorMessage({ ok: false, status: 400, body: { error: { code: 400, message: "EMAIL_EXISTS" } } }),
    "EMAIL_EXISTS",
  );
  assert.equal(authErrorMessage({ ok: false, status: 502, body: null }), "HTTP 502");
});

test("OOB codes and the privacy setting read from the emulator's answers", () => {
  const body = {
    oobCodes: [{ email: "a@b.c", oobCode: "C1", oobLink: "http://x/emulator/action?oobCode=C1", requestType: "PASSWORD_RESET" }],
  };
  assert.deepEqual(oobRows(body), [
    { email: "a@b.c", requestType: "PASSWORD_RESET", oobCode: "C1", oobLink: "http://x/emulator/action?oobCode=C1" },
  ]);
  assert.deepEqual(oobRows({}), []);
  assert.equal(improvedEmailPrivacy({ emailPrivacyConfig: { enableImprovedEmailPrivacy: true } }), true);
  assert.equal(improvedEmailPrivacy({ signIn: {} }), false);
});

test("the unsigned custom token is what the Admin SDKs make in emulator mode", () => {
  const token = unsignedCustomToken("u1", { nowSeconds: 100, claims: { librarian: true } });
  assert.ok(token.endsWith("."));
  const { header, claims } = decodeToken(token);
  assert.deepEqual(header, { alg: "none", typ: "JWT" });
  assert.equal(claims.uid, "u1");
  assert.equal(claims.aud, CUSTOM_TOKEN_AUDIENCE);
  assert.equal(claims.exp, 3700);
  assert.deepEqual(claims.claims, { librarian: true });
  assert.equal("claims" in decodeToken(unsignedCustomToken("u2")).claims, false);
});

function recordingSend(answers) {
  const sent = [];
  const send = async (method, path, body, headers) => {
    sent.push({ method, path, body, headers });
    return answers.shift() ?? { ok: true, status: 200, body: {} };
  };
  return { sent, send };
}

test("the admin client sends the owner credential and the emulator's paths", async () => {
  const { sent, send } = recordingSend([]);
  const client = new AuthAdminClient("demo", send);
  await client.listUsers("u19", 20);
  await client.createUser({ email: "a@b.c" });
  await client.updateUser("u1", { customAttributes: '{"a":1}' });
  await client.deleteUser("u1");
  await client.deleteAllUsers();
  await client.setImprovedEmailPrivacy(true);
  assert.deepEqual(
    sent.map(({ method, path }) => `${method} ${path}`),
    [
      "GET /identitytoolkit.googleapis.com/v1/projects/demo/accounts:batchGet?maxResults=20&nextPageToken=u19",
      "POST /identitytoolkit.googleapis.com/v1/projects/demo/accounts",
      "POST /identitytoolkit.googleapis.com/v1/projects/demo/accounts:update",
      "POST /identitytoolkit.googleapis.com/v1/projects/demo/accounts:delete",
      "DELETE /emulator/v1/projects/demo/accounts",
      "PATCH /emulator/v1/projects/demo/config",
    ],
  );
  for (const request of sent.slice(0, 4)) assert.deepEqual(request.headers, { Authorization: "Bearer owner" });
  assert.deepEqual(sent[2].body, { localId: "u1", customAttributes: '{"a":1}' });
  assert.deepEqual(sent[5].body, { emailPrivacyConfig: { enableImprovedEmailPrivacy: true } });
});

test("signing in as a user answers its ID token, or the emulator's error", async () => {
  const { sent, send } = recordingSend([
    { ok: true, status: 200, body: { idToken: "ID", refreshToken: "R" } },
    { ok: false, status: 400, body: { error: { code: 400, message: "USER_DISABLED" } } },
  ]);
  const client = new AuthAdminClient("demo", send);
  assert.deepEqual(await client.signInAs("u1"), { idToken: "ID" });
  assert.deepEqual(await client.signInAs("u2"), { error: "USER_DISABLED" });
  assert.match(sent[0].path, /^\/identitytoolkit\.googleapis\.com\/v1\/accounts:signInWithCustomToken\?key=/);
  assert.equal(decodeToken(sent[0].body.token).claims.uid, "u1");
  assert.equal(sent[0].body.returnSecureToken, true);
});
