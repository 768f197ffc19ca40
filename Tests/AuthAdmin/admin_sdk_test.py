#!/usr/bin/python3
"""Google's Admin SDK for Python (`firebase-admin`) against the emulator's Auth emulator.

Starts `.build/debug/dataconnect emulator --backend Backend/movies --project demo-admin` on a free port (and, for
one check, a second emulator with `--project demo-other` whose ID tokens must be refused), points the Admin SDK at it
with `FIREBASE_AUTH_EMULATOR_HOST` (as with firebase-tools' Auth emulator) and walks through the user management and token calls an app's backend makes: create, get, update, import, custom claims, custom tokens,
paging, delete, revoke, ID token and session cookie verification, and email action links. The client side of each
flow (sign-in, refresh, password reset) is the Identity Toolkit REST API over urllib, as the client SDKs call it.

Every Admin SDK call is printed to stdout, one line each, with its outcome: the transcript is the evidence.
Build the CLI first (`swift build --product dataconnect`), then run from the repository root:

    .build/venv/bin/python Tests/AuthAdmin/admin_sdk_test.py [-k PATTERN]

`firebase-admin` comes from the test clients' virtual environment (`make venv`, pinned in
Tests/python-requirements.txt).
"""

import atexit
import base64
import datetime
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.parse
import urllib.request
import uuid
from pathlib import Path

import firebase_admin
from firebase_admin import auth

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "dataconnect"
BACKEND = "Backend/movies"
PROJECT = "demo-admin"
START_GUARD = 120  # a hang guard, not an expectation
WAIT = 60

TRANSCRIPT = []  # (test name, line)
_current_test = ["setup"]


def record(call, outcome):
    """Keeps one transcript line: the Admin SDK (or REST) call and what came of it."""
    TRANSCRIPT.append((_current_test[0], f"{call}  ->  {outcome}"))


def sdk(call, function, *args, **kwargs):
    """Runs an Admin SDK call, records it and its outcome (the result, or the exception), and returns or re-raises."""
    try:
        result = function(*args, **kwargs)
    except Exception as error:  # recorded, then raised for the test to judge
        record(call, f"raised {type(error).__name__}: {str(error)[:160]}")
        raise
    record(call, summarize(result))
    return result


def summarize(result):
    if isinstance(result, auth.UserRecord):
        parts = [f"uid={result.uid}"]
        for name in ("email", "display_name", "disabled", "email_verified", "custom_claims"):
            value = getattr(result, name)
            if value not in (None, False, {}):
                parts.append(f"{name}={value!r}")
        return "UserRecord(" + ", ".join(parts) + ")"
    if isinstance(result, auth.UserImportResult):
        return f"UserImportResult(success={result.success_count}, failure={result.failure_count}, errors={[(e.index, e.reason) for e in result.errors]})"
    if isinstance(result, auth.DeleteUsersResult):
        return f"DeleteUsersResult(success={result.success_count}, failure={result.failure_count})"
    if isinstance(result, auth.ListUsersPage):
        return f"ListUsersPage(users={len(result.users)}, next_page_token={'…' if result.next_page_token else None})"
    if isinstance(result, bytes):
        return f"bytes({len(result)}: {result[:40].decode(errors='replace')}…)"
    if isinstance(result, str) and len(result) > 100:
        return f"str({len(result)}: {result[:90]}…)"
    if isinstance(result, dict):
        keep = {k: v for k, v in result.items() if k in ("uid", "sub", "aud", "iss", "librarian", "tier", "firebase")}
        return f"claims {json.dumps(keep, sort_keys=True)}"
    return repr(result)


# --------------------------------------------------------------------------------------------------------------
# The emulator as a child process

_processes = []


class Emulator:
    def __init__(self, workdir, extra=()):
        self.workdir = Path(workdir)
        self.extra = list(extra)
        self.process = None
        self.url = None
        self.stdout_path = self.workdir / "emulator.out"
        self.stderr_path = self.workdir / "emulator.log"

    def start(self):
        args = [str(BINARY), "emulator", "--backend", BACKEND, "--port", "0", "--no-watch", *self.extra]
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _processes.append(self.process)
        deadline = time.monotonic() + START_GUARD
        while self.url is None:
            match = re.search(r"^ready (\S+)\s*$", self.stdout_path.read_text(errors="replace"), re.M)
            if match:
                self.url = match.group(1).rstrip("/")
                break
            if self.process.poll() is not None:
                raise RuntimeError(f"the emulator exited with status {self.process.returncode}:\n{self.log()}")
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the emulator did not print `ready <url>` within {START_GUARD} s:\n{self.log()}")
            time.sleep(0.05)
        return self

    @property
    def host(self):
        return self.url.split("://", 1)[1]

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=START_GUARD)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def log(self):
        try:
            return self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""


def _stop_everything():
    for process in _processes:
        if process.poll() is None:
            process.kill()


def _terminated(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


atexit.register(_stop_everything)
signal.signal(signal.SIGTERM, _terminated)


# --------------------------------------------------------------------------------------------------------------
# The client side: the Identity Toolkit REST API as the client SDKs call it


def http(method, url, body=None, headers=None, form=False):
    """Sends a request; returns (status, parsed JSON body or text)."""
    if body is None:
        data = None
    elif form:
        data = urllib.parse.urlencode(body).encode()
    else:
        data = json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/x-www-form-urlencoded" if form else "application/json")
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, raw = error.code, error.read()
    text = raw.decode(errors="replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def jwt_parts(token):
    """The header and payload of a JWT, undecoded signature ignored."""

    def decode(part):
        return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))

    header, payload, _ = token.split(".")
    return decode(header), decode(payload)


def jwt_with(token, **changes):
    """The token with payload fields changed (the emulator's tokens are unsigned, so this is a valid forgery)."""

    def encode(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    header, payload = jwt_parts(token)
    payload.update(changes)
    return f"{encode(header)}.{encode(payload)}.{token.split('.')[2]}"


def error_message(body):
    return body.get("error", {}).get("message", "") if isinstance(body, dict) else str(body)


class AdminSDKTests(unittest.TestCase):
    emulator = None

    @classmethod
    def setUpClass(cls):
        cls.workdir = Path(tempfile.mkdtemp(prefix="dataconnect-admin-sdk-"))
        cls.emulator = Emulator(cls.workdir, extra=["--project", PROJECT]).start()
        status, info = http("GET", cls.emulator.url + "/emulator/info")
        if status != 200 or "auth" not in info:
            cls.emulator.stop()
            raise RuntimeError(f"the emulator serves no Auth emulator: /emulator/info answers {status} {info}")
        if info["auth"].get("projectId") != PROJECT:
            cls.emulator.stop()
            raise RuntimeError(f"/emulator/info reports auth project {info['auth']} instead of {PROJECT}")
        os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = cls.emulator.host
        cls.app = firebase_admin.initialize_app(options={"projectId": PROJECT}, name=f"admin-{uuid.uuid4().hex[:6]}")
        record(f"initialize_app(projectId={PROJECT!r}) with FIREBASE_AUTH_EMULATOR_HOST={cls.emulator.host}", "ok")

    @classmethod
    def tearDownClass(cls):
        if cls.emulator is not None:
            cls.emulator.stop()
        firebase_admin.delete_app(cls.app)
        shutil.rmtree(cls.workdir, ignore_errors=True)

    def setUp(self):
        _current_test[0] = self.id().rsplit(".", 1)[-1]

    # -- the client's REST calls

    def rest(self, method, path, body=None, form=False):
        return http(method, f"{self.emulator.url}{path}", body, form=form)

    def sign_in(self, email, password):
        status, body = self.rest(
            "POST",
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake",
            {"email": email, "password": password, "returnSecureToken": True},
        )
        record(f"REST accounts:signInWithPassword {email}", f"{status} {error_message(body) or 'idToken'}")
        return status, body

    def signed_in(self, email, password):
        status, body = self.sign_in(email, password)
        self.assertEqual(status, 200, body)
        return body

    def refresh(self, refresh_token):
        status, body = self.rest(
            "POST",
            "/securetoken.googleapis.com/v1/token?key=fake",
            {"grant_type": "refresh_token", "refresh_token": refresh_token},
            form=True,
        )
        record("REST securetoken token (grant_type=refresh_token)", f"{status} {error_message(body) or 'id_token'}")
        return status, body

    def new_user(self, **fields):
        fields.setdefault("email", f"u-{uuid.uuid4().hex[:8]}@example.com")
        fields.setdefault("password", "secret-123")
        return sdk(f"create_user({', '.join(f'{k}={v!r}' for k, v in fields.items())})", auth.create_user, app=self.app, **fields)

    # -- the tests

    def test_01_create_and_get(self):
        user = self.new_user(display_name="Ada", email="ada@example.com", email_verified=True)
        self.assertEqual(user.email, "ada@example.com")
        self.assertEqual(user.display_name, "Ada")
        self.assertTrue(user.email_verified)
        self.assertEqual([p.provider_id for p in user.provider_data], ["password"])
        again = sdk(f"get_user({user.uid!r})", auth.get_user, user.uid, app=self.app)
        self.assertEqual(again.email, "ada@example.com")
        self.assertGreater(again.user_metadata.creation_timestamp, 0)
        by_email = sdk("get_user_by_email('ada@example.com')", auth.get_user_by_email, "ada@example.com", app=self.app)
        self.assertEqual(by_email.uid, user.uid)
        with self.assertRaises(auth.EmailAlreadyExistsError):
            self.new_user(email="ada@example.com")
        with self.assertRaises(auth.UserNotFoundError):
            sdk("get_user_by_email('nobody@example.com')", auth.get_user_by_email, "nobody@example.com", app=self.app)
        chosen = self.new_user(uid="chosen-uid", email="chosen@example.com")
        self.assertEqual(chosen.uid, "chosen-uid")
        with self.assertRaises(auth.UidAlreadyExistsError):
            self.new_user(uid="chosen-uid")

    def test_02_update_user(self):
        user = self.new_user(email="bea@example.com", password="first-pass")
        updated = sdk(
            "update_user(display_name='Bea', password='second-pass')",
            auth.update_user,
            user.uid,
            display_name="Bea",
            password="second-pass",
            app=self.app,
        )
        self.assertEqual(updated.display_name, "Bea")
        status, body = self.sign_in("bea@example.com", "first-pass")
        self.assertEqual(status, 400, body)
        self.assertRegex(error_message(body), "INVALID_PASSWORD|INVALID_LOGIN_CREDENTIALS")
        self.signed_in("bea@example.com", "second-pass")
        disabled = sdk("update_user(disabled=True)", auth.update_user, user.uid, disabled=True, app=self.app)
        self.assertTrue(disabled.disabled)
        status, body = self.sign_in("bea@example.com", "second-pass")
        self.assertEqual((status, error_message(body)), (400, "USER_DISABLED"))
        enabled = sdk("update_user(disabled=False, display_name=DELETE_ATTRIBUTE)", auth.update_user, user.uid, disabled=False,
                      display_name=auth.DELETE_ATTRIBUTE, app=self.app)
        self.assertFalse(enabled.disabled)
        self.assertIsNone(enabled.display_name)

    def test_03_import_users(self):
        plain = [
            auth.ImportUserRecord(
                uid="imported-1",
                email="imported-1@example.com",
                display_name="First Import",
                email_verified=True,
                custom_claims={"librarian": True},
            ),
            auth.ImportUserRecord(uid="imported-2", email="imported-2@example.com", disabled=True),
        ]
        result = sdk("import_users([imported-1, imported-2]) without hashes", auth.import_users, plain, app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (2, 0))
        first = sdk("get_user('imported-1')", auth.get_user, "imported-1", app=self.app)
        self.assertEqual(first.custom_claims, {"librarian": True})
        self.assertTrue(first.email_verified)
        self.assertTrue(sdk("get_user('imported-2')", auth.get_user, "imported-2", app=self.app).disabled)

        hashed = [
            auth.ImportUserRecord(
                uid="imported-hashed",
                email="imported-hashed@example.com",
                password_hash=b"not-a-real-hash-but-bytes",
                password_salt=b"salt",
            )
        ]
        result = sdk(
            "import_users([imported-hashed], hash_alg=UserImportHash.hmac_sha256(key=b'k'))",
            auth.import_users,
            hashed,
            hash_alg=auth.UserImportHash.hmac_sha256(key=b"k"),
            app=self.app,
        )
        self.assertEqual((result.success_count, result.failure_count), (1, 0), [e.reason for e in result.errors])
        imported = sdk("get_user('imported-hashed')", auth.get_user, "imported-hashed", app=self.app)
        self.assertEqual(imported.email, "imported-hashed@example.com")
        # A uid twice in one batch: the emulator refuses the whole batch (DUPLICATE_LOCAL_ID), as firebase-tools does.
        with self.assertRaises(auth.UidAlreadyExistsError):
            sdk("import_users([dup, dup])", auth.import_users,
                [auth.ImportUserRecord(uid="dup"), auth.ImportUserRecord(uid="dup")], app=self.app)

    def test_04_custom_claims_reach_the_id_token(self):
        user = self.new_user(email="cleo@example.com")
        sdk("set_custom_user_claims({'librarian': True, 'tier': 2})", auth.set_custom_user_claims, user.uid,
            {"librarian": True, "tier": 2}, app=self.app)
        self.assertEqual(sdk("get_user", auth.get_user, user.uid, app=self.app).custom_claims, {"librarian": True, "tier": 2})
        tokens = self.signed_in("cleo@example.com", "secret-123")
        header, payload = jwt_parts(tokens["idToken"])
        record("decode the ID token", f"header={header} librarian={payload.get('librarian')} tier={payload.get('tier')}")
        self.assertTrue(payload.get("librarian"))
        self.assertEqual(payload.get("tier"), 2)
        claims = sdk("verify_id_token(id_token)", auth.verify_id_token, tokens["idToken"], app=self.app)
        self.assertEqual((claims["uid"], claims["librarian"]), (user.uid, True))
        with self.assertRaises(ValueError):
            sdk("set_custom_user_claims({'sub': 'x'})", auth.set_custom_user_claims, user.uid, {"sub": "x"}, app=self.app)
        sdk("set_custom_user_claims(None)", auth.set_custom_user_claims, user.uid, None, app=self.app)
        self.assertEqual(sdk("get_user", auth.get_user, user.uid, app=self.app).custom_claims, None)

    def test_05_custom_token_sign_in(self):
        token = sdk("create_custom_token('custom-uid', {'librarian': True})", auth.create_custom_token,
                    "custom-uid", {"librarian": True}, app=self.app)
        header, payload = jwt_parts(token.decode())
        record("decode the custom token", f"header={header} uid={payload.get('uid')} claims={payload.get('claims')}")
        self.assertEqual(header.get("alg"), "none")
        status, body = self.rest(
            "POST",
            "/identitytoolkit.googleapis.com/v1/accounts:signInWithCustomToken?key=fake",
            {"token": token.decode(), "returnSecureToken": True},
        )
        record("REST accounts:signInWithCustomToken", f"{status} {error_message(body) or 'idToken'}")
        self.assertEqual(status, 200, body)
        claims = sdk("verify_id_token(id_token from the custom token)", auth.verify_id_token, body["idToken"], app=self.app)
        self.assertEqual(claims["uid"], "custom-uid")
        self.assertTrue(claims["librarian"])
        self.assertEqual(claims["firebase"]["sign_in_provider"], "custom")
        self.assertEqual(sdk("get_user('custom-uid')", auth.get_user, "custom-uid", app=self.app).uid, "custom-uid")

    def test_06_list_users_paging(self):
        prefix = f"page-{uuid.uuid4().hex[:4]}"
        uids = {f"{prefix}-{n:02d}" for n in range(27)}
        result = sdk(f"import_users(27 users {prefix}-NN)", auth.import_users,
                     [auth.ImportUserRecord(uid=uid, email=f"{uid}@example.com") for uid in sorted(uids)], app=self.app)
        self.assertEqual(result.success_count, 27)
        page = sdk("list_users(max_results=10)", auth.list_users, max_results=10, app=self.app)
        seen = []
        pages = 0
        while page:
            pages += 1
            self.assertLessEqual(len(page.users), 10)
            seen += [user.uid for user in page.users]
            page = sdk(f"ListUsersPage.get_next_page() after page {pages}", page.get_next_page) if page.has_next_page else None
        self.assertEqual(len(seen), len(set(seen)), "a user is listed twice")
        self.assertTrue(uids <= set(seen), sorted(uids - set(seen)))
        self.assertGreaterEqual(pages, 3)
        every = [user.uid for user in auth.list_users(max_results=7, app=self.app).iterate_all()]
        record("list_users(max_results=7).iterate_all()", f"{len(every)} users")
        self.assertEqual(sorted(every), sorted(seen))

    def test_07_delete(self):
        user = self.new_user()
        sdk(f"delete_user({user.uid!r})", auth.delete_user, user.uid, app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            sdk(f"get_user({user.uid!r})", auth.get_user, user.uid, app=self.app)
        with self.assertRaises(auth.UserNotFoundError):
            sdk(f"delete_user({user.uid!r}) again", auth.delete_user, user.uid, app=self.app)
        many = [self.new_user().uid for _ in range(3)]
        result = sdk("delete_users([3 uids, 'never-existed'])", auth.delete_users, many + ["never-existed"], app=self.app)
        self.assertEqual((result.success_count, result.failure_count), (4, 0))
        for uid in many:
            with self.assertRaises(auth.UserNotFoundError):
                sdk(f"get_user({uid!r})", auth.get_user, uid, app=self.app)

    def test_08_revoke_refresh_tokens(self):
        user = self.new_user(email="dora@example.com")
        tokens = self.signed_in("dora@example.com", "secret-123")
        status, body = self.refresh(tokens["refreshToken"])
        self.assertEqual(status, 200, body)
        # Revocation is recorded in whole seconds (validSince); a token issued in the same second stays valid.
        time.sleep(1.1)
        sdk(f"revoke_refresh_tokens({user.uid!r})", auth.revoke_refresh_tokens, user.uid, app=self.app)
        after = sdk("get_user", auth.get_user, user.uid, app=self.app)
        self.assertGreater(after.tokens_valid_after_timestamp, 0)
        status, body = self.refresh(tokens["refreshToken"])
        self.assertEqual((status, error_message(body)), (400, "TOKEN_EXPIRED"), body)
        with self.assertRaises(auth.RevokedIdTokenError):
            sdk("verify_id_token(revoked, check_revoked=True)", auth.verify_id_token, tokens["idToken"],
                check_revoked=True, app=self.app)
        # Without check_revoked the token is only decoded and checked.
        sdk("verify_id_token(revoked, check_revoked=False)", auth.verify_id_token, tokens["idToken"], app=self.app)
        fresh = self.signed_in("dora@example.com", "secret-123")
        claims = sdk("verify_id_token(new sign-in, check_revoked=True)", auth.verify_id_token, fresh["idToken"],
                     check_revoked=True, app=self.app)
        self.assertEqual(claims["uid"], user.uid)

    def test_09_verify_id_token(self):
        user = self.new_user(email="eve@example.com")
        tokens = self.signed_in("eve@example.com", "secret-123")
        claims = sdk("verify_id_token(valid, check_revoked=True)", auth.verify_id_token, tokens["idToken"],
                     check_revoked=True, app=self.app)
        self.assertEqual((claims["uid"], claims["aud"]), (user.uid, PROJECT))
        self.assertEqual(claims["iss"], f"https://securetoken.google.com/{PROJECT}")

        foreign = jwt_with(tokens["idToken"], aud="demo-other", iss="https://securetoken.google.com/demo-other")
        with self.assertRaises(auth.InvalidIdTokenError):
            sdk("verify_id_token(hand-edited aud=demo-other)", auth.verify_id_token, foreign, check_revoked=True,
                app=self.app)
        # A token another emulator minted for its own project.
        other_dir = Path(tempfile.mkdtemp(prefix="dataconnect-admin-sdk-other-"))
        other = Emulator(other_dir, extra=["--project", "demo-other"]).start()
        try:
            status, body = http(
                "POST",
                f"{other.url}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake",
                {"email": "eve@example.com", "password": "secret-123", "returnSecureToken": True},
            )
            record("REST accounts:signUp on an emulator with --project demo-other", f"{status} {error_message(body) or 'idToken'}")
            self.assertEqual(status, 200, body)
        finally:
            other.stop()
            shutil.rmtree(other_dir, ignore_errors=True)
        with self.assertRaises(auth.InvalidIdTokenError):
            sdk("verify_id_token(minted by --project demo-other)", auth.verify_id_token, body["idToken"], app=self.app)
        # (In emulator mode the SDK takes the payload as it is: it checks aud, iss and sub, not exp or a signature.)

        sdk("update_user(disabled=True)", auth.update_user, user.uid, disabled=True, app=self.app)
        with self.assertRaises(auth.UserDisabledError):
            sdk("verify_id_token(disabled user's, check_revoked=True)", auth.verify_id_token, tokens["idToken"],
                check_revoked=True, app=self.app)

    def test_10_email_action_links(self):
        user = self.new_user(email="finn@example.com", password="old-pass-1")
        link = sdk("generate_password_reset_link('finn@example.com')", auth.generate_password_reset_link,
                   "finn@example.com", app=self.app)
        code = urllib.parse.parse_qs(urllib.parse.urlparse(link).query).get("oobCode", [None])[0]
        self.assertTrue(code, link)
        status, body = self.rest(
            "POST",
            "/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=fake",
            {"oobCode": code, "newPassword": "new-pass-2"},
        )
        record("REST accounts:resetPassword {oobCode, newPassword}", f"{status} {error_message(body) or body.get('requestType')}")
        self.assertEqual(status, 200, body)
        self.assertEqual(body.get("email"), "finn@example.com")
        self.signed_in("finn@example.com", "new-pass-2")
        status, body = self.sign_in("finn@example.com", "old-pass-1")
        self.assertEqual(status, 400, body)

        link = sdk("generate_email_verification_link('finn@example.com')", auth.generate_email_verification_link,
                   "finn@example.com", app=self.app)
        code = urllib.parse.parse_qs(urllib.parse.urlparse(link).query).get("oobCode", [None])[0]
        self.assertTrue(code, link)
        status, body = self.rest(
            "POST", "/identitytoolkit.googleapis.com/v1/accounts:update?key=fake", {"oobCode": code}
        )
        record("REST accounts:update {oobCode} (verify email)", f"{status} {error_message(body) or 'emailVerified=' + str(body.get('emailVerified'))}")
        self.assertEqual(status, 200, body)
        self.assertTrue(sdk("get_user", auth.get_user, user.uid, app=self.app).email_verified)
        status, codes = self.rest("GET", f"/emulator/v1/projects/{PROJECT}/oobCodes")
        self.assertEqual(status, 200, codes)
        record("REST GET /emulator/v1/projects/demo-admin/oobCodes",
               f"{status} {sorted({c['requestType'] for c in codes['oobCodes'] if c['email'] == 'finn@example.com'})}")

    def test_11_session_cookie(self):
        user = self.new_user(email="gus@example.com")
        tokens = self.signed_in("gus@example.com", "secret-123")
        cookie = sdk("create_session_cookie(id_token, expires_in=5 days)", auth.create_session_cookie,
                     tokens["idToken"], expires_in=datetime.timedelta(days=5), app=self.app)
        _, payload = jwt_parts(cookie if isinstance(cookie, str) else cookie.decode())
        self.assertEqual(payload["iss"], f"https://session.firebase.google.com/{PROJECT}")
        self.assertAlmostEqual(payload["exp"] - payload["iat"], 5 * 24 * 3600, delta=5)
        claims = sdk("verify_session_cookie(cookie, check_revoked=True)", auth.verify_session_cookie, cookie,
                     check_revoked=True, app=self.app)
        self.assertEqual(claims["uid"], user.uid)
        with self.assertRaises(auth.InvalidSessionCookieError):
            sdk("verify_session_cookie(id_token)", auth.verify_session_cookie, tokens["idToken"], app=self.app)


def main():
    if not BINARY.exists():
        sys.exit(f"{BINARY} is missing: run `swift build --product dataconnect` first")
    try:
        program = unittest.main(module=__name__, exit=False, verbosity=2)
    except KeyboardInterrupt:
        _stop_everything()
        sys.exit(130)
    print(f"\nAdmin SDK transcript ({len(TRANSCRIPT)} calls, firebase-admin {firebase_admin.__version__}):")
    shown = None
    for test, line in TRANSCRIPT:
        if test != shown:
            print(f"[{test}]")
            shown = test
        print(f"  {line}")
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
