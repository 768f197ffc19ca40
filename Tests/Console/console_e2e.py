#!/usr/bin/python3
"""End-to-end tests of the emulator's console in headless Chromium.

Starts `.build/debug/dataconnect emulator` on Backend/movies (seeded, on a free port, with a data directory so a
restart keeps the data), opens the console at `/` in headless Chromium driven by Selenium, and walks through it:
the schema, the data grid (paging, sorting, filtering, editing, inserting, deleting), operations run signed in
and signed out, the GraphQL editor (errors, completion, history), the keyboard, a live subscription, the realtime
and requests views, an emulator restart, and the Authentication view over the Auth emulator (users, custom claims,
disable, delete, OOB codes, clear all) with an operation run as one of its users. A second suite checks that
`--no-console` turns the console off.

Each test saves a screenshot to `.build/console-screenshots/<test name>.png` and fails on any browser console
entry of level SEVERE. Build the CLI first (`swift build --product dataconnect`), then run from the repository root:

    .build/venv/bin/python Tests/Console/console_e2e.py [-k PATTERN]

Selenium comes from the test clients' virtual environment (`make venv`, pinned in Tests/python-requirements.txt);
the browser is Debian's `chromium` with `chromium-driver` (`make bootstrap-test` installs them).
"""

import atexit
import base64
import json
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.error
import urllib.request
import uuid
from pathlib import Path

from selenium import webdriver
from selenium.common.exceptions import (
    NoSuchElementException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "dataconnect"
BACKEND = "Backend/movies"
SEED = "Backend/movies/seed_data.gql"
ARTIFACTS = ROOT / ".build" / "console-screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

# Generous hang guards, not expectations: the suite must pass on a machine whose cores are busy.
WAIT = 60
START_GUARD = 120
PAGE_SIZE = 20

PROJECT = "p"
LOCATION = "l"
SERVICE = "movies"
CONNECTOR = "movies"
SERVICE_NAME = f"projects/{PROJECT}/locations/{LOCATION}/services/{SERVICE}"
CONNECTOR_NAME = f"{SERVICE_NAME}/connectors/{CONNECTOR}"
STREAM_PATH = (
    "/ws/google.firebase.dataconnect.v1.ConnectorStreamService.Connect/"
    f"{PROJECT}/locations/{LOCATION}/services/{SERVICE}"
)

SCREENSHOTS = []
_emulators = set()
_drivers = set()
_workdirs = set()


# --------------------------------------------------------------------------------------------------------------
# The emulator as a child process


class Emulator:
    """One `dataconnect emulator` process, its output kept in files under `workdir`."""

    count = 0

    def __init__(self, workdir, data_dir=None, port=0, seed=True, extra=()):
        Emulator.count += 1
        self.number = Emulator.count
        self.workdir = Path(workdir)
        self.data_dir = data_dir
        self.port = port
        self.seed = seed
        self.extra = list(extra)
        self.process = None
        self.url = None
        self.stdout_path = self.workdir / f"emulator-{self.number}.out"
        self.stderr_path = self.workdir / f"emulator-{self.number}.log"

    def start(self):
        args = [str(BINARY), "emulator", "--backend", BACKEND, "--port", str(self.port), "--no-watch"]
        if self.data_dir is not None:
            args += ["--data-dir", str(self.data_dir)]
        if self.seed:
            args += ["--seed", SEED]
        args += self.extra
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(args, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=out, stderr=err)
        _emulators.add(self)
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
        self.port = int(self.url.rsplit(":", 1)[1])
        while True:
            try:
                status, _ = http("GET", self.url + "/emulator/info")
                if status == 200:
                    return self
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"{self.url}/emulator/info did not answer within {START_GUARD} s:\n{self.log()}")
            time.sleep(0.05)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=START_GUARD)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        _emulators.discard(self)
        self.keep_log()

    def log(self):
        try:
            return self.stderr_path.read_text(errors="replace")
        except OSError:
            return ""

    def keep_log(self):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if self.stderr_path.exists():
            shutil.copyfile(self.stderr_path, ARTIFACTS / f"emulator-{self.number}.log")


def _stop_everything():
    for driver in list(_drivers):
        try:
            driver.quit()
        except Exception:
            pass
        _drivers.discard(driver)
    for emulator in list(_emulators):
        try:
            emulator.stop()
        except Exception:
            if emulator.process is not None:
                emulator.process.kill()
    for workdir in list(_workdirs):
        shutil.rmtree(workdir, ignore_errors=True)
        _workdirs.discard(workdir)


def make_workdir():
    """A temporary folder for an emulator's data and output, removed at the end even when interrupted."""
    workdir = Path(tempfile.mkdtemp(prefix="dataconnect-console-e2e-"))
    _workdirs.add(workdir)
    return workdir


def _terminated(signum, frame):
    # unittest records most exceptions of a test and goes on; an interrupt stops the run.
    raise KeyboardInterrupt(f"signal {signum}")


atexit.register(_stop_everything)
signal.signal(signal.SIGTERM, _terminated)
signal.signal(signal.SIGHUP, _terminated)


# --------------------------------------------------------------------------------------------------------------
# The emulator's HTTP API


def http(method, url, body=None, headers=None):
    """Sends a request; returns (status, parsed JSON body or text). Raises OSError when nothing answers."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method, headers=dict(headers or {}))
    if data is not None:
        request.add_header("Content-Type", "application/json")
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


def id_token(uid, email=None):
    """An unsigned ID token (the emulator decodes tokens, never verifies them)."""

    def encode(value):
        return base64.urlsafe_b64encode(json.dumps(value).encode()).rstrip(b"=").decode()

    now = int(time.time())
    claims = {
        "sub": uid,
        "user_id": uid,
        "iat": now,
        "exp": now + 3600,
        "aud": PROJECT,
        "iss": f"https://securetoken.google.com/{PROJECT}",
        "email": email or f"{uid}@example.com",
        "email_verified": True,
        "firebase": {"sign_in_provider": "password", "identities": {}},
    }
    return f"{encode({'alg': 'none', 'typ': 'JWT'})}.{encode(claims)}."


# --------------------------------------------------------------------------------------------------------------
# The browser


def start_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1440,900"):
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    _drivers.add(driver)
    driver.set_page_load_timeout(START_GUARD)
    driver.set_script_timeout(WAIT)
    return driver


class Condition:
    """A WebDriverWait condition from a function of the driver; returns its truthy value."""

    def __init__(self, function):
        self.function = function

    def __call__(self, driver):
        return self.function(driver)


class ConsoleTestCase(unittest.TestCase):
    """Shared machinery: the emulator, the browser, waits, a screenshot and the browser log check per test."""

    emulator = None
    driver = None
    workdir = None
    # Browser log entries a test expects (regular expressions on the message); the rest of SEVERE fails it.
    expected_log = ()

    @classmethod
    def start_suite(cls, extra=()):
        cls.workdir = make_workdir()
        cls.data_dir = cls.workdir / "data"
        cls.data_dir.mkdir()
        cls.emulator = Emulator(cls.workdir, data_dir=cls.data_dir, extra=extra).start()
        cls.driver = start_browser()

    @classmethod
    def stop_suite(cls):
        if cls.driver is not None:
            try:
                cls.driver.quit()
            finally:
                _drivers.discard(cls.driver)
                cls.driver = None
        if cls.emulator is not None:
            cls.emulator.stop()
        if cls.workdir is not None:
            shutil.rmtree(cls.workdir, ignore_errors=True)

    def setUp(self):
        self.expected_log = ()

    def tearDown(self):
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = self.id().rsplit(".", 1)[-1]
        path = ARTIFACTS / f"{name}.png"
        try:
            if self.driver.save_screenshot(str(path)):
                SCREENSHOTS.append(path)
        except Exception as error:
            print(f"\n  could not save {path}: {error}", file=sys.stderr)
        errors = [entry for entry in self.driver.get_log("browser") if entry.get("level") == "SEVERE"]
        expected = [
            entry
            for entry in errors
            if any(re.search(pattern, entry.get("message", "")) for pattern in self.expected_log)
        ]
        severe = [entry for entry in errors if entry not in expected]
        if expected:
            print(f"\n  {name}: {len(expected)} expected browser error(s), e.g. {expected[0].get('message')}")
        if severe:
            lines = "\n".join(f"  [{entry.get('source', '?')}] {entry.get('message')}" for entry in severe)
            print(f"\n{name}: browser console errors:\n{lines}", file=sys.stderr)
            self.fail(f"{len(severe)} browser console error(s):\n{lines}")

    def snapshot(self, label):
        """Saves a screenshot of the current step as `<test name>-<label>.png`."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.id().rsplit('.', 1)[-1]}-{label}.png"
        if self.driver.save_screenshot(str(path)):
            SCREENSHOTS.append(path)

    # -- URLs and the API

    @property
    def base(self):
        return self.emulator.url

    def admin(self, query, variables=None):
        """Runs admin GraphQL; returns `data`, failing the test on errors."""
        status, body = http(
            "POST", f"{self.base}/v1/{SERVICE_NAME}:executeGraphql", {"query": query, "variables": variables or {}}
        )
        self.assertEqual(status, 200, body)
        self.assertFalse(body.get("errors"), body)
        return body["data"]

    def execute(self, kind, operation, variables=None, token=None):
        """Runs a connector operation as a client (signed in when `token`); returns (status, body)."""
        method = "executeMutation" if kind == "mutation" else "executeQuery"
        headers = {"X-Firebase-Auth-Token": token} if token else {}
        return http(
            "POST",
            f"{self.base}/v1/{CONNECTOR_NAME}:{method}",
            {"name": CONNECTOR_NAME, "operationName": operation, "variables": variables or {}},
            headers,
        )

    # -- waits

    def wait(self, function, message, timeout=WAIT):
        """Polls `function(driver)` until it returns a truthy value (returned); fails the test after `timeout` s."""
        try:
            return WebDriverWait(
                self.driver,
                timeout,
                poll_frequency=0.1,
                ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
            ).until(Condition(function), message)
        except TimeoutException:
            raise self.failureException(f"{message} (after {timeout} s)") from None

    def find(self, selector, within=None):
        """Waits for an element matching `selector` and returns it."""
        root = within or self.driver
        return self.wait(lambda d: root.find_element(By.CSS_SELECTOR, selector), f"no element matches {selector}")

    def find_all(self, selector, within=None):
        return (within or self.driver).find_elements(By.CSS_SELECTOR, selector)

    def visible(self, selector):
        def shown(driver):
            element = driver.find_element(By.CSS_SELECTOR, selector)
            return element if element.is_displayed() else None

        return self.wait(shown, f"{selector} is not displayed")

    def wait_text(self, selector, predicate, message):
        """Waits until the text of the element matching `selector` satisfies `predicate`; returns the text."""

        def check(driver):
            text = driver.find_element(By.CSS_SELECTOR, selector).text
            return text if predicate(text) else None

        try:
            return self.wait(check, message)
        except self.failureException:
            texts = [element.text for element in self.find_all(selector)]
            raise AssertionError(f"{message}; text now: {texts!r}") from None

    def wait_attribute(self, selector, attribute, predicate, message):
        def check(driver):
            value = driver.find_element(By.CSS_SELECTOR, selector).get_attribute(attribute)
            return value if value is not None and predicate(value) else None

        try:
            return self.wait(check, message)
        except self.failureException:
            values = [element.get_attribute(attribute) for element in self.find_all(selector)]
            raise AssertionError(f"{message}; {attribute} now: {values!r}") from None

    def click(self, selector):
        element = self.visible(selector)
        self.wait(lambda d: element.is_enabled(), f"{selector} stays disabled")
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
        element.click()
        return element

    def fill(self, selector, text):
        element = self.visible(selector)
        element.clear()
        element.send_keys(text)
        return element

    def set_value(self, element, text):
        """Sets a text control's value as a paste would, firing `input`."""
        self.driver.execute_script(
            "arguments[0].value = arguments[1];"
            "arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
            element,
            text,
        )

    def keys(self, *sequence, modifier=None):
        actions = ActionChains(self.driver)
        if modifier:
            actions.key_down(modifier)
        actions.send_keys(*sequence)
        if modifier:
            actions.key_up(modifier)
        actions.perform()

    # -- the console

    def open(self, route="#/schema", view=None):
        """Loads the console afresh at `route` and waits until it is connected and shows `view`."""
        self.driver.get("about:blank")
        self.driver.get(f"{self.base}/{route}")
        self.wait_connected()
        view = view or route.split("/")[1]
        self.wait_view(view)

    def wait_connected(self):
        self.wait_attribute(
            '[data-testid="connection-status"]',
            "data-state",
            lambda s: s == "connected",
            "the console is not connected",
        )

    def wait_view(self, view):
        return self.find(f'main [data-view="{view}"]')

    def go(self, route, view=None):
        """Moves to `route` inside the page (hash routing, no reload)."""
        self.driver.execute_script("window.location.hash = arguments[0]", route)
        return self.wait_view(view or route.split("/")[1])


# --------------------------------------------------------------------------------------------------------------
# The console, step by step


class ConsoleFlowTests(ConsoleTestCase):
    @classmethod
    def setUpClass(cls):
        cls.start_suite()
        # Fail at once, not test by test after a minute's wait each, when the console is not served at all.
        for path in ("/", "/emulator/console/model"):
            status, _ = http("GET", cls.emulator.url + path)
            if status != 200:
                cls.stop_suite()
                raise RuntimeError(f"the emulator answers GET {path} with {status}, not the console")
        _, cls.model = http("GET", cls.emulator.url + "/emulator/console/model")

    @classmethod
    def tearDownClass(cls):
        cls.stop_suite()

    # -- helpers for the data grid

    def grid_rows(self):
        return self.find_all('table[data-testid="data-grid"] tbody tr[data-row-index]')

    def column(self, field):
        """The texts of the grid's cells of `field`, in row order."""
        return [
            row.find_element(By.CSS_SELECTOR, f'td[data-field="{field}"]').text.strip() for row in self.grid_rows()
        ]

    def wait_column(self, field, predicate, message):
        def check(driver):
            values = self.column(field)
            return values if predicate(values) else None

        try:
            return self.wait(check, message)
        except self.failureException:
            raise AssertionError(f"{message}; {field} column now: {self.column(field)!r}") from None

    def page_info(self):
        return self.find('[data-testid="data-page-info"]').text

    def is_disabled(self, selector):
        element = self.find(selector)
        return not element.is_enabled() or element.get_attribute("aria-disabled") == "true"

    def open_data(self, type_name="Movie"):
        self.open(f"#/data/{type_name}", view="data")
        self.find('table[data-testid="data-grid"] tbody tr[data-row-index="0"]')

    def apply_filter(self, field, text):
        element = self.fill(f'input[data-filter-field="{field}"]', text)
        element.send_keys(Keys.ENTER)

    def row_with(self, field, value):
        for row in self.grid_rows():
            if row.find_element(By.CSS_SELECTOR, f'td[data-field="{field}"]').text.strip() == value:
                return row
        return None

    def movie_count(self):
        return len(self.admin("{ movies(limit: 100000) { id } }")["movies"])

    # -- 01 the page

    def test_01_console_loads(self):
        self.open("#/schema")
        for tab in ("schema", "data", "operations", "graphql", "realtime", "requests", "auth"):
            self.visible(f'a[data-testid="tab-{tab}"]')
        self.assertEqual(self.model["serviceId"], SERVICE)

        status, page = http("GET", self.base + "/")
        self.assertEqual(status, 200)
        self.assertIn('type="module"', page)
        request = urllib.request.Request(self.base + "/")
        with urllib.request.urlopen(request, timeout=WAIT) as response:
            policy = response.headers.get("Content-Security-Policy", "")
        self.assertIn("default-src 'self'", policy)
        self.assertIn("script-src 'self'", policy)
        for path in ("/favicon.ico", "/console/favicon.svg"):
            with urllib.request.urlopen(self.base + path, timeout=WAIT) as response:
                self.assertEqual(response.status, 200, path)
                self.assertIn("svg", response.headers.get("Content-Type", ""), path)
        # The default route is the schema.
        self.driver.get("about:blank")
        self.driver.get(self.base + "/")
        self.wait_view("schema")
        self.wait_connected()

    # -- 02 schema

    def test_02_schema_browse(self):
        self.open("#/schema")
        diagram = self.visible('svg[data-testid="schema-diagram"]')
        types = [table["type"] for table in self.model["tables"]]
        self.assertIn("Movie", types)
        for type_name in types:
            self.find(f'g[data-table="{type_name}"]', within=diagram)
            self.find(f'[data-testid="schema-table"][data-table="{type_name}"]')
        for table in self.model["tables"]:
            for relation in table["relations"]:
                self.find(f'[data-relation="{table["type"]}.{relation["field"]}"]')
        self.find('[data-relation="Movie.director"]')
        card = self.find('[data-testid="schema-table"][data-table="Movie"]')
        for column in ("id", "title", "releaseYear", "genre", "director"):
            self.find(f'[data-column="{column}"]', within=card)
        self.assertIn("listMovies", card.get_attribute("textContent"), "the Movie card does not list its operations")
        title = card.find_element(By.CSS_SELECTOR, '[data-column="title"]')
        self.assertIn("String", title.get_attribute("textContent"))
        # Choosing a table in the diagram brings its card into view.
        box = self.find('svg[data-testid="schema-diagram"] g[data-table="Review"]')
        ActionChains(self.driver).move_to_element(box).click().perform()
        self.wait(
            lambda d: d.execute_script(
                "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.top < window.innerHeight;",
                d.find_element(By.CSS_SELECTOR, '[data-testid="schema-table"][data-table="Review"]'),
            ),
            "clicking Review in the diagram does not bring its card into view",
        )

    # -- 03 data: browse and page

    def test_03_data_browse_and_page(self):
        total = self.movie_count()
        self.assertGreater(total, 2 * PAGE_SIZE, "the seed has fewer movies than this test pages through")
        self.open_data("Movie")
        select = Select(self.find('select[data-testid="data-table-select"]'))
        self.assertEqual(select.first_selected_option.get_attribute("value"), "Movie")
        self.assertEqual(
            {option.get_attribute("value") for option in select.options},
            {table["type"] for table in self.model["tables"]},
        )
        self.wait(lambda d: len(self.grid_rows()) == PAGE_SIZE, f"the first page does not hold {PAGE_SIZE} rows")
        for field in ("id", "title", "releaseYear", "genre"):
            self.find(f'table[data-testid="data-grid"] th[data-field="{field}"]')
        self.assertRegex(self.page_info(), r"\b1\b.*\b20\b")
        self.assertTrue(self.is_disabled('[data-testid="data-prev"]'), "Previous is enabled on the first page")

        seen = list(self.column("id"))
        page = 1
        while not self.is_disabled('[data-testid="data-next"]'):
            previous_first = self.column("id")[0]
            self.click('[data-testid="data-next"]')
            page += 1
            self.wait_column(
                "id", lambda ids: ids and ids[0] != previous_first, f"page {page} does not replace the rows"
            )
            first_row = (page - 1) * PAGE_SIZE + 1
            self.wait_text(
                '[data-testid="data-page-info"]',
                lambda text: str(first_row) in text,
                f"the page info does not mention row {first_row}",
            )
            seen += self.column("id")
            self.assertLessEqual(page, total // PAGE_SIZE + 2, "Next never becomes disabled")
        self.assertEqual(page, -(-total // PAGE_SIZE), "the number of pages")
        self.assertEqual(len(self.grid_rows()), total - (page - 1) * PAGE_SIZE, "rows on the last page")
        every = self.admin("{ movies(limit: 100000) { id } }")["movies"]
        self.assertEqual(sorted(seen), sorted(movie["id"] for movie in every), "the pages do not hold every row once")

        self.click('[data-testid="data-prev"]')
        self.wait_text(
            '[data-testid="data-page-info"]',
            lambda text: str((page - 2) * PAGE_SIZE + 1) in text,
            "Previous does not go back a page",
        )

        # Another table through the select.
        Select(self.find('select[data-testid="data-table-select"]')).select_by_value("Person")
        people = {p["name"] for p in self.admin("{ people(limit: 100000) { name } }")["people"]}
        self.find('table[data-testid="data-grid"] th[data-field="name"]')
        self.wait_column(
            "name",
            lambda names: names and all(name in people for name in names),
            "the Person table does not show its rows",
        )
        self.wait(lambda d: "#/data/Person" in d.current_url, "the route does not follow the selected table")

    # -- 04 data: sort

    def test_04_data_sort(self):
        ascending = [m["title"] for m in self.admin("{ movies(limit: 20, orderBy: {title: ASC}) { title } }")["movies"]]
        descending = [
            m["title"] for m in self.admin("{ movies(limit: 20, orderBy: {title: DESC}) { title } }")["movies"]
        ]
        self.open_data("Movie")
        header = 'table[data-testid="data-grid"] th[data-field="title"]'
        self.click(header)
        self.wait_attribute(header, "data-sort", lambda s: s == "asc", "a click does not sort ascending")
        self.wait_column("title", lambda titles: titles == ascending, f"rows are not sorted by title: {ascending}")
        self.click(header)
        self.wait_attribute(header, "data-sort", lambda s: s == "desc", "a second click does not sort descending")
        self.wait_column(
            "title", lambda titles: titles == descending, f"rows are not sorted by title descending: {descending}"
        )

    # -- 05 data: filter

    def test_05_data_filter(self):
        self.open_data("Movie")
        self.wait(lambda d: len(self.grid_rows()) == PAGE_SIZE, "the unfiltered grid does not fill a page")
        self.apply_filter("title", "Alien")
        titles = self.wait_column(
            "title",
            lambda titles: 0 < len(titles) < PAGE_SIZE and "Alien" in titles,
            "the title filter does not narrow the rows to Alien",
        )
        for title in titles:
            self.assertIn("Alien", title)

    # -- 06 data: edit a row

    def test_06_data_edit_row(self):
        text = f"Edited in the console {uuid.uuid4().hex[:8]}"
        self.open_data("Movie")
        self.apply_filter("title", "Alien")
        self.wait(lambda d: self.row_with("title", "Alien"), "no row titled Alien")
        row = self.row_with("title", "Alien")
        movie_id = row.find_element(By.CSS_SELECTOR, 'td[data-field="id"]').text.strip()
        button = row.find_element(By.CSS_SELECTOR, 'button[data-action="edit"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        self.visible('form[data-testid="row-editor"]')
        self.fill('form[data-testid="row-editor"] [data-input-field="description"]', text)
        self.click('button[data-testid="row-save"]')
        self.wait(
            lambda d: (row := self.row_with("title", "Alien")) is not None
            and row.find_element(By.CSS_SELECTOR, 'td[data-field="description"]').text.strip() == text,
            "the edited description does not show in the row",
        )
        stored = self.admin("query ($id: UUID!) { movie(id: $id) { description } }", {"id": movie_id})
        self.assertEqual(stored["movie"]["description"], text)

    # -- 07 data: an insert the API refuses

    def test_07_data_insert_error(self):
        self.open_data("Movie")
        before = self.movie_count()
        self.click('[data-testid="data-insert"]')
        self.visible('form[data-testid="row-editor"]')
        self.fill('form[data-testid="row-editor"] [data-input-field="releaseYear"]', "2001")
        self.click('button[data-testid="row-save"]')
        message = self.wait_text(
            '[data-testid="data-error"]', lambda t: t.strip() != "", "an insert without a title shows no error"
        )
        # The message is the API's own, as an insert without a title gets it.
        status, refused = http(
            "POST",
            f"{self.base}/v1/{SERVICE_NAME}:executeGraphql",
            {"query": "mutation { movie_insert(data: {releaseYear: 2001}) }"},
        )
        self.assertTrue(refused.get("errors"), refused)
        self.assertIn(refused["errors"][0]["message"], message, "the error is not the API's message")
        self.assertEqual(self.movie_count(), before, "the refused insert wrote a row")
        self.snapshot("refused")
        self.click('button[data-testid="row-cancel"]')
        self.wait(
            lambda d: not any(form.is_displayed() for form in self.find_all('form[data-testid="row-editor"]')),
            "Cancel does not close the editor",
        )

    # -- 08 data: insert then delete

    def test_08_data_insert_and_delete(self):
        title = f"Console Insert {uuid.uuid4().hex[:8]}"
        self.open_data("Movie")
        self.apply_filter("title", title)
        self.wait(lambda d: len(self.grid_rows()) == 0, "the filter on a new title still shows rows")
        self.click('[data-testid="data-insert"]')
        self.visible('form[data-testid="row-editor"]')
        self.fill('form[data-testid="row-editor"] [data-input-field="title"]', title)
        self.fill('form[data-testid="row-editor"] [data-input-field="releaseYear"]', "2026")
        self.fill('form[data-testid="row-editor"] [data-input-field="genre"]', "Documentary")
        self.click('button[data-testid="row-save"]')
        self.wait(lambda d: self.row_with("title", title), "the inserted row does not show")
        stored = self.admin(
            "query ($t: String!) { movies(where: {title: {eq: $t}}) { releaseYear genre } }", {"t": title}
        )
        self.assertEqual(stored["movies"], [{"releaseYear": 2026, "genre": "Documentary"}])
        row = self.row_with("title", title)
        self.assertEqual(row.find_element(By.CSS_SELECTOR, 'td[data-field="releaseYear"]').text.strip(), "2026")
        self.snapshot("inserted")

        button = row.find_element(By.CSS_SELECTOR, 'button[data-action="delete"]')
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
        button.click()
        self.click('button[data-testid="row-delete-confirm"]')
        self.wait(lambda d: self.row_with("title", title) is None, "the deleted row still shows")
        stored = self.admin("query ($t: String!) { movies(where: {title: {eq: $t}}) { id } }", {"t": title})
        self.assertEqual(stored["movies"], [])

    # -- 09..12 operations

    def operation_route(self, name):
        return f"#/operations/{CONNECTOR}/{name}"

    def test_09_operation_list(self):
        self.open(self.operation_route("upsertUser"), view="operations")
        listing = self.visible('[data-testid="operation-list"]')
        connector = next(c for c in self.model["connectors"] if c["name"] == CONNECTOR)
        for operation in connector["operations"]:
            self.find(f'[data-operation="{CONNECTOR}/{operation["name"]}"]', within=listing)
        item = self.find(f'[data-operation="{CONNECTOR}/upsertUser"]', within=listing)
        self.assertIn("USER", item.text)
        self.assertIn("mutation", item.text.lower())
        # Clicking another operation opens it.
        other = self.find(f'[data-operation="{CONNECTOR}/listMoviesByGenre"]', within=listing)
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", other)
        other.click()
        self.wait(lambda d: d.current_url.endswith("/listMoviesByGenre"), "clicking an operation does not open it")
        self.visible('form[data-testid="variables-form"] [data-variable="genre"]')

    def run_upsert_user(self, caller, uid=None):
        self.open(self.operation_route("upsertUser"), view="operations")
        self.fill('form[data-testid="variables-form"] [data-variable="username"]', f"console-{caller}")
        Select(self.find('select[data-testid="caller-mode"]')).select_by_value(caller)
        if uid is not None:
            self.fill('input[data-testid="caller-uid"]', uid)
        self.click('button[data-testid="operation-run"]')

    def test_10_operation_signed_out_refused(self):
        # The browser logs every HTTP error answer; this one is the refusal the test asks for.
        self.expected_log = (r":executeMutation - Failed to load resource: .* status of 401\b",)
        self.run_upsert_user("unauthenticated")
        self.wait_attribute(
            '[data-testid="result-status"]', "data-status", lambda s: s == "401", "signed out is not refused with 401"
        )
        self.assertIn("UNAUTHENTICATED", self.find('[data-testid="result-status"]').text)
        self.assertEqual(
            self.admin('{ users(where: {username: {eq: "console-unauthenticated"}}) { id } }')["users"], []
        )

    def test_11_operation_signed_in(self):
        uid = f"console-{uuid.uuid4().hex[:8]}"
        self.run_upsert_user("user", uid)
        self.wait_attribute(
            '[data-testid="result-status"]', "data-status", lambda s: s == "200", "signed in does not succeed"
        )
        self.assertIn("200", self.find('[data-testid="result-status"]').text)
        self.wait_text('pre[data-testid="result-json"]', lambda t: "user_upsert" in t, "no result JSON")
        stored = self.admin("query ($id: String!) { user(id: $id) { username } }", {"id": uid})
        self.assertEqual(stored["user"], {"username": "console-user"})

    def test_12_query_result_and_sql(self):
        self.open(self.operation_route("listMoviesByGenre"), view="operations")
        self.fill('form[data-testid="variables-form"] [data-variable="genre"]', "Sci-Fi")
        Select(self.find('select[data-testid="caller-mode"]')).select_by_value("unauthenticated")
        self.click('button[data-testid="operation-run"]')
        self.wait_attribute('[data-testid="result-status"]', "data-status", lambda s: s == "200", "the query fails")
        self.wait_text('pre[data-testid="result-json"]', lambda t: "Alien" in t, "the result has no Sci-Fi movie")
        self.wait_text('pre[data-testid="result-sql"]', lambda t: "SELECT" in t.upper(), "the result shows no SQL")
        self.find('[data-testid="result-time"]')

    # -- 13..15 GraphQL

    def editor(self):
        return self.visible('textarea[data-testid="graphql-editor"]')

    def test_13_graphql_syntax_error(self):
        # The browser logs every HTTP error answer; this one is the syntax error the test sends.
        self.expected_log = (r":executeGraphql - Failed to load resource: .* status of 400\b",)
        self.open("#/graphql")
        self.set_value(self.editor(), "query Broken {\n  movies(limit: ) {\n    title\n  }\n}\n")
        self.click('button[data-testid="graphql-run"]')
        text = self.wait_text(
            '[data-testid="graphql-errors"] li', lambda t: t.strip() != "", "a syntax error shows no error"
        )
        self.assertRegex(text, r"\b2:\d+", "the error does not give line 2 and its column")

    def test_14_graphql_completion(self):
        self.open("#/graphql")
        editor = self.editor()
        self.set_value(editor, "")
        editor.click()
        editor.send_keys("{ mov")
        self.keys(" ", modifier=Keys.CONTROL)
        self.wait(
            lambda d: any(
                li.text.strip().startswith("movies")
                for li in d.find_elements(By.CSS_SELECTOR, 'ul[data-testid="graphql-completions"] li')
            ),
            "Ctrl+Space after `{ mov` does not suggest movies",
        )
        suggestions = [li.text.split()[0] for li in self.find_all('ul[data-testid="graphql-completions"] li')]
        self.assertTrue(all("mov" in s.lower() for s in suggestions), suggestions)

        def selected():
            items = self.find_all('ul[data-testid="graphql-completions"] li[aria-selected="true"]')
            return items[0].text.split()[0] if items else None

        # Move the selection to `movies` (when the list marks its selection), then insert it with Enter.
        for _ in range(len(suggestions)):
            if selected() in (None, "movies"):
                break
            self.keys(Keys.ARROW_DOWN)
        wanted = "movies" if selected() == "movies" else None
        self.snapshot("suggestions")
        self.keys(Keys.ENTER)

        def inserted(driver):
            match = re.search(r"\{\s*(\w+)", editor.get_attribute("value"))
            return match and match.group(1) in suggestions and wanted in (None, match.group(1))

        self.wait(inserted, f"Enter does not insert the selected suggestion ({wanted or 'any'})")
        self.wait(
            lambda d: not any(li.is_displayed() for li in self.find_all('ul[data-testid="graphql-completions"] li')),
            "the suggestions stay open after inserting one",
        )

    def test_15_graphql_run_and_history(self):
        self.open("#/graphql")
        editor = self.editor()
        query = "{ movies(limit: 2, orderBy: {title: ASC}) { title } }"
        self.set_value(editor, query)
        editor.click()
        self.keys(Keys.ENTER, modifier=Keys.CONTROL)
        self.wait_text('pre[data-testid="graphql-result"]', lambda t: "Aliens" in t, "Ctrl+Enter does not run it")
        self.assertEqual(self.find_all('[data-testid="graphql-errors"] li'), [])
        self.set_value(editor, "")
        item = self.wait(
            lambda d: next(
                (
                    li
                    for li in d.find_elements(By.CSS_SELECTOR, '[data-testid="graphql-history"] li')
                    if "orderBy: {title: ASC}" in li.text or "movies(limit: 2" in li.text
                ),
                None,
            ),
            "the history does not list the document run",
        )
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", item)
        item.click()
        self.wait(lambda d: editor.get_attribute("value").strip() == query, "a history item does not restore")

    # -- 16 keyboard

    def test_16_keyboard(self):
        self.open("#/schema")
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        self.keys("2", modifier=Keys.ALT)
        self.wait_view("data")
        self.wait(lambda d: "#/data" in d.current_url, "Alt+2 does not route to the data view")
        self.keys("4", modifier=Keys.ALT)
        self.wait_view("graphql")
        self.wait(lambda d: "#/graphql" in d.current_url, "Alt+4 does not route to the GraphQL view")

        self.open(self.operation_route("listMovies"), view="operations")
        self.find('button[data-testid="operation-run"]')
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        reached = False
        for _ in range(400):
            self.keys(Keys.TAB)
            if self.driver.execute_script(
                "return document.activeElement && document.activeElement.dataset.testid === 'operation-run'"
            ):
                reached = True
                break
        self.assertTrue(reached, "Tab never reaches the run button")
        self.keys(Keys.ENTER)
        self.wait_attribute(
            '[data-testid="result-status"]', "data-status", lambda s: s == "200", "Enter on the run button does not run"
        )

    # -- 17 subscription

    def test_17_subscription_live_update(self):
        title = f"Subscribed Arrival {uuid.uuid4().hex[:8]}"
        self.open(self.operation_route("listMovies"), view="operations")
        Select(self.find('select[data-testid="caller-mode"]')).select_by_value("unauthenticated")
        self.click('button[data-testid="operation-subscribe"]')
        result = 'pre[data-testid="subscription-result"]'
        self.wait_attribute(result, "data-updates", lambda n: int(n) >= 1, "the subscription receives nothing")
        self.wait_text(result, lambda t: "Alien" in t, "the subscription result lacks the movies")
        updates = int(self.find(result).get_attribute("data-updates"))
        self.driver.execute_script("window.__consoleE2ESamePage = true")

        status, body = self.execute(
            "mutation", "createMovie", {"title": title, "releaseYear": 2026, "genre": "Sci-Fi", "rating": 4}
        )
        self.assertEqual(status, 200, body)
        self.wait_text(result, lambda t: title in t, "the movie created over REST does not appear")
        self.assertGreater(int(self.find(result).get_attribute("data-updates")), updates)
        self.assertTrue(self.driver.execute_script("return window.__consoleE2ESamePage === true"), "the page reloaded")
        self.driver.execute_script(
            "const pre = arguments[0]; const at = pre.textContent.indexOf(arguments[1]);"
            "if (at >= 0) pre.scrollTop = pre.scrollHeight * at / pre.textContent.length - pre.clientHeight / 2;"
            "pre.scrollIntoView({block: 'center'});",
            self.find(result),
            title,
        )
        self.snapshot("pushed")
        self.click('button[data-testid="operation-unsubscribe"]')
        self.wait(
            lambda d: not any(group["operation"] == "listMovies" for group in self.realtime_state()["groups"]),
            "unsubscribing does not end the subscription",
        )

    # -- 18 realtime

    def open_stream(self, operation, variables):
        """Subscribes from the page over the stream WebSocket, as the JS SDK does; returns the socket's index."""
        return self.driver.execute_script(
            """
            const [path, frame] = arguments;
            const sockets = (window.__consoleE2ESockets = window.__consoleE2ESockets || []);
            const socket = new WebSocket(`ws://${location.host}${path}`);
            socket.frames = [];
            socket.onopen = () => socket.send(JSON.stringify(frame));
            socket.onmessage = (event) => socket.frames.push(event.data);
            sockets.push(socket);
            return sockets.length - 1;
            """,
            STREAM_PATH,
            {
                "requestId": "1",
                "name": CONNECTOR_NAME,
                "subscribe": {"operationName": operation, "variables": variables},
            },
        )

    def stream_frames(self, index):
        return self.driver.execute_script("return window.__consoleE2ESockets[arguments[0]].frames.length", index)

    def close_streams(self):
        self.driver.execute_script(
            "for (const socket of window.__consoleE2ESockets || []) socket.close(); window.__consoleE2ESockets = [];"
        )

    def realtime_state(self):
        status, body = http("GET", self.base + "/emulator/console/realtime")
        self.assertEqual(status, 200, body)
        return body

    def realtime_group(self, operation, subscribers):
        def check(_):
            for group in self.realtime_state()["groups"]:
                if group.get("operation") == operation and group.get("subscribers") == subscribers:
                    return group
            return None

        return self.wait(check, f"the emulator reports no {operation} group of {subscribers} subscriber(s)")

    def group_row_shows(self, group_id, subscribers):
        def check(driver):
            row = driver.find_element(
                By.CSS_SELECTOR, f'table[data-testid="realtime-groups"] tr[data-group="{group_id}"]'
            )
            cells = [cell.text.strip() for cell in row.find_elements(By.CSS_SELECTOR, 'td[data-field="subscribers"]')]
            cells = cells or [cell.text.strip() for cell in row.find_elements(By.CSS_SELECTOR, "td")]
            return row if any(re.fullmatch(rf"{subscribers}(\s.*)?", cell) for cell in cells) else None

        try:
            return self.wait(check, f"group {group_id} does not show {subscribers} subscriber(s)")
        except self.failureException:
            rows = [row.text for row in self.find_all('table[data-testid="realtime-groups"] tr')]
            raise self.failureException(
                f"group {group_id} does not show {subscribers} subscriber(s); rows: {rows!r}"
            ) from None

    def test_18_realtime_groups(self):
        self.open("#/realtime")
        self.find('table[data-testid="realtime-groups"]')
        variables = {"genre": "Thriller"}
        first = self.open_stream("listMoviesByGenre", variables)
        self.wait(lambda d: self.stream_frames(first) >= 1, "the stream subscription gets no first response")
        group = self.realtime_group("listMoviesByGenre", 1)
        row = self.group_row_shows(group["id"], 1)
        self.assertIn("listMoviesByGenre", row.text)

        second = self.open_stream("listMoviesByGenre", variables)
        self.wait(lambda d: self.stream_frames(second) >= 1, "the second subscription gets no first response")
        self.assertEqual(self.realtime_group("listMoviesByGenre", 2)["id"], group["id"])
        self.group_row_shows(group["id"], 2)

        feed = 'ul[data-testid="realtime-feed"] li'
        before = len(self.find_all(feed))
        title = f"Realtime Thriller {uuid.uuid4().hex[:8]}"
        status, body = self.execute(
            "mutation", "createMovie", {"title": title, "releaseYear": 2026, "genre": "Thriller", "rating": 3}
        )
        self.assertEqual(status, 200, body)
        self.wait(
            lambda d: len(self.find_all(feed)) > before
            and "listMoviesByGenre" in self.find_all(feed)[0].text
            and "change" in self.find_all(feed)[0].text,
            "the feed shows no change push after the mutation",
        )
        self.snapshot("two-subscribers")
        self.close_streams()
        self.wait(
            lambda d: not self.find_all(f'table[data-testid="realtime-groups"] tr[data-group="{group["id"]}"]'),
            "the group still shows after its subscribers left",
        )

    # -- 19 requests

    def curl(self, kind, operation, variables, token=None):
        """Runs a connector operation with curl, as a developer would; returns the emulator's record of it."""
        method = "executeMutation" if kind == "mutation" else "executeQuery"
        body = json.dumps({"name": CONNECTOR_NAME, "operationName": operation, "variables": variables})
        command = ["curl", "-sS", "-o", "/dev/null", "-X", "POST", "-H", "Content-Type: application/json"]
        if token:
            command += ["-H", f"X-Firebase-Auth-Token: {token}"]
        command += ["--data", body, f"{self.base}/v1/{CONNECTOR_NAME}:{method}"]
        subprocess.run(command, check=True, timeout=WAIT)
        status, log = http("GET", self.base + "/emulator/console/requests")
        self.assertEqual(status, 200, log)
        made = [
            entry
            for entry in log["requests"]
            if entry.get("operation") == operation and entry.get("method") == method
        ]
        self.assertTrue(made, f"the emulator did not record the curl request for {operation}")
        return made[-1]

    def test_19_requests_from_curl(self):
        self.open("#/requests")
        self.find('table[data-testid="requests-table"]')
        signed_out = self.curl("query", "listMoviesByGenre", {"genre": "Drama"})
        signed_in = self.curl("query", "listMyReviews", {}, token=id_token("curl-user"))
        # The table is re-rendered as requests arrive: read each row in one script, so no element goes stale
        # between finding it and reading it.
        read_row = """
            const row = document.querySelector(
                `table[data-testid="requests-table"] tbody tr[data-request-id="${arguments[0]}"]`);
            if (!row) return null;
            const cells = {};
            for (const td of row.querySelectorAll("td[data-field]")) cells[td.dataset.field] = td.textContent.trim();
            return cells;
        """
        for request, operation, caller in (
            (signed_out, "listMoviesByGenre", "unauthenticated"),
            (signed_in, "listMyReviews", "uid:curl-user"),
        ):
            cells = self.wait(
                lambda d: d.execute_script(read_row, request["id"]), f"request {request['id']} is not listed"
            )
            self.assertIn(operation, cells.get("operation", ""))
            self.assertIn(caller, cells.get("caller", ""))
            self.assertIn("200", cells.get("status", ""))
            self.assertRegex(cells.get("durationMs", ""), r"\d")
        shown = self.driver.execute_script(
            """return [...document.querySelectorAll('table[data-testid="requests-table"] tbody tr[data-request-id]')]
                   .map((row) => Number(row.dataset.requestId));"""
        )
        self.assertEqual(shown, sorted(shown, reverse=True), "the requests are not listed newest first")
        self.assertEqual(shown[0], signed_in["id"], "the newest request is not first")

    def grpc_execute_query(self, operation, variables):
        """Runs a connector query over gRPC with Google's grpcio, as the iOS and Android SDKs call it: stubs for
        connector_service.proto made with grpc_tools.protoc into a temporary folder."""
        import grpc
        from google.protobuf import struct_pb2
        from grpc_tools import protoc

        out = Path(tempfile.mkdtemp(prefix="console-grpc-"))
        protos = ROOT / "Packages" / "DataConnectKit" / "Protos"
        include = Path(protoc.__file__).parent / "_proto"
        status = protoc.main(["grpc_tools.protoc", f"-I{protos}", f"-I{include}", f"--python_out={out}",
                              f"--grpc_python_out={out}", "google/firebase/dataconnect/v1/connector_service.proto",
                              "google/firebase/dataconnect/v1/graphql_error.proto",
                              "google/firebase/dataconnect/v1/graphql_response_extensions.proto"])
        self.assertEqual(status, 0, "grpc_tools.protoc failed")
        sys.path.insert(0, str(out))
        try:
            from google.firebase.dataconnect.v1 import connector_service_pb2, connector_service_pb2_grpc
        finally:
            sys.path.remove(str(out))
            shutil.rmtree(out, ignore_errors=True)
        arguments = struct_pb2.Struct()
        arguments.update(variables)
        target = self.base.removeprefix("http://")
        with grpc.insecure_channel(target) as channel:
            stub = connector_service_pb2_grpc.ConnectorServiceStub(channel)
            stub.ExecuteQuery(
                connector_service_pb2.ExecuteQueryRequest(
                    name=CONNECTOR_NAME, operation_name=operation, variables=arguments),
                timeout=WAIT)

    def test_19b_requests_over_grpc(self):
        self.open("#/requests")
        self.find('table[data-testid="requests-table"]')
        self.grpc_execute_query("listMoviesByGenre", {"genre": "Comedy"})
        status, log = http("GET", self.base + "/emulator/console/requests")
        self.assertEqual(status, 200, log)
        made = [entry for entry in log["requests"]
                if entry.get("protocol") == "grpc" and entry.get("method") == "ExecuteQuery"]
        self.assertTrue(made, f"the emulator did not record the gRPC call: {log['requests'][-3:]}")
        row = self.wait(
            lambda d: d.execute_script(
                """const row = document.querySelector(
                       `table[data-testid="requests-table"] tbody tr[data-request-id="${arguments[0]}"]`);
                   if (!row) return null;
                   const cells = {};
                   for (const td of row.querySelectorAll("td[data-field]")) cells[td.dataset.field] = td.textContent.trim();
                   return cells;""",
                made[-1]["id"],
            ),
            "the gRPC call is not listed",
        )
        self.assertEqual(row.get("protocol"), "gRPC")
        self.assertEqual(row.get("method"), "ExecuteQuery")
        self.assertIn("listMoviesByGenre", row.get("operation", ""))
        self.assertIn("200", row.get("status", ""))
        self.assertEqual(row.get("code"), "OK")

    # -- 20 restart

    def test_20_emulator_restart(self):
        # While the emulator is down the browser logs its refused connections; nothing else may be logged.
        self.expected_log = (
            r"net::ERR_CONNECTION_REFUSED",
            r"net::ERR_CONNECTION_RESET",
            r"net::ERR_EMPTY_RESPONSE",
            r"WebSocket connection to '.*' failed",
        )
        self.open_data("Movie")
        self.apply_filter("title", "Alien")
        self.wait(lambda d: self.row_with("title", "Alien"), "no row titled Alien")
        port = self.emulator.port
        self.emulator.stop()
        self.wait_attribute(
            '[data-testid="connection-status"]',
            "data-state",
            lambda s: s == "disconnected",
            "the console does not notice the emulator stopped",
        )
        type(self).emulator = Emulator(self.workdir, data_dir=self.data_dir, port=port, seed=False).start()
        self.wait_connected()
        # A view still works on the restarted emulator: the data survive and the grid loads them.
        self.go("#/schema")
        self.find('svg[data-testid="schema-diagram"] g[data-table="Movie"]')
        self.click('a[data-testid="tab-data"]')
        self.wait_view("data")
        self.wait(lambda d: len(self.grid_rows()) > 0, "the data grid is empty after the restart")
        self.apply_filter("title", "Aliens")
        self.wait(lambda d: self.row_with("title", "Aliens"), "the grid does not query the restarted emulator")

    # -- 21..25 the Authentication view (the Auth emulator served on the emulator's port)

    def auth_project(self):
        status, info = http("GET", self.base + "/emulator/info")
        self.assertEqual(status, 200, info)
        self.assertIn("auth", info, "/emulator/info reports no auth: the Auth emulator is not served")
        return info["auth"]["projectId"]

    def auth_admin(self, method, suffix, body=None):
        """Calls the Auth emulator's admin API (`…/v1/projects/{p}/accounts{suffix}`); returns (status, body)."""
        path = f"/identitytoolkit.googleapis.com/v1/projects/{self.auth_project()}/accounts{suffix}"
        return http(method, self.base + path, body, {"Authorization": "Bearer owner"})

    def auth_create(self, **fields):
        status, body = self.auth_admin("POST", "", fields)
        self.assertEqual(status, 200, body)
        return body["localId"]

    def auth_lookup(self, uid):
        status, body = self.auth_admin("POST", ":lookup", {"localId": [uid]})
        self.assertEqual(status, 200, body)
        return (body.get("users") or [None])[0]

    def auth_clear(self):
        status, body = http("DELETE", f"{self.base}/emulator/v1/projects/{self.auth_project()}/accounts")
        self.assertEqual(status, 200, body)

    def auth_row(self, uid):
        return self.find(f'table[data-testid="auth-users"] tr[data-uid="{uid}"]')

    def auth_cell(self, uid, field):
        return self.driver.execute_script(
            """const row = document.querySelector(`table[data-testid="auth-users"] tr[data-uid="${arguments[0]}"]`);
               const cell = row && row.querySelector(`td[data-field="${arguments[1]}"]`);
               return cell ? cell.textContent.trim() : null;""",
            uid,
            field,
        )

    def auth_action(self, uid, action):
        """Clicks a row's action button; the table is re-rendered after each change, so a stale find is retried."""
        selector = f'table[data-testid="auth-users"] tr[data-uid="{uid}"] button[data-action="{action}"]'

        def click(driver):
            button = driver.find_element(By.CSS_SELECTOR, selector)
            driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            button.click()
            return True

        self.wait(click, f"no {action} button for {uid}")

    def test_21_auth_create_user_and_claims(self):
        self.auth_clear()
        email = f"reader-{uuid.uuid4().hex[:6]}@example.com"
        self.open("#/schema")
        self.driver.execute_script("document.activeElement && document.activeElement.blur()")
        self.keys("7", modifier=Keys.ALT)
        self.wait_view("auth")
        self.wait(lambda d: "#/auth" in d.current_url, "Alt+7 does not route to the Authentication view")
        self.find('[data-testid="auth-project"]')

        self.fill('input[data-testid="auth-new-email"]', email)
        self.fill('input[data-testid="auth-new-password"]', "secret-123")
        self.fill('input[data-testid="auth-new-name"]', "Rita Reader")
        self.click('button[data-testid="auth-create"]')
        row = self.wait(
            lambda d: next(
                (r for r in self.find_all('table[data-testid="auth-users"] tr[data-uid]') if email in r.text), None
            ),
            f"the created user {email} is not listed",
        )
        uid = row.get_attribute("data-uid")
        self.assertEqual(self.auth_cell(uid, "displayName"), "Rita Reader")
        self.assertEqual(self.auth_cell(uid, "providers"), "password")
        self.assertRegex(self.auth_cell(uid, "createdAt"), r"^\d{4}-\d{2}-\d{2} ")
        # Anonymous users are created too.
        self.click('input[data-testid="auth-new-anonymous"]')
        self.fill('input[data-testid="auth-new-name"]', "Ghost")
        self.click('button[data-testid="auth-create"]')
        self.wait(
            lambda d: any("anonymous" in r.text for r in self.find_all('table[data-testid="auth-users"] tr[data-uid]')),
            "the anonymous user is not listed",
        )

        # Claims: an invalid text is refused as you type, a valid one is saved with accounts:update.
        self.auth_action(uid, "edit-claims")
        editor = self.visible('textarea[data-testid="auth-claims-editor"]')
        self.set_value(editor, '{"sub": "someone-else"}')
        self.wait_text('[data-testid="auth-claims-error"]', lambda t: "sub" in t, "a reserved claim is not refused")
        self.assertFalse(self.find('button[data-testid="auth-claims-save"]').is_enabled())
        self.set_value(editor, '{"librarian": true}')
        self.click('button[data-testid="auth-claims-save"]')
        self.wait(lambda d: self.auth_cell(uid, "claims") == '{"librarian":true}', "the saved claims do not show")

        self.open("#/auth")
        self.auth_row(uid)
        self.wait(lambda d: self.auth_cell(uid, "claims") == '{"librarian":true}', "the claims do not show after reload")
        user = self.auth_lookup(uid)
        self.assertEqual(json.loads(user["customAttributes"]), {"librarian": True})
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        if self.driver.save_screenshot(str(ARTIFACTS / "auth-view.png")):
            SCREENSHOTS.append(ARTIFACTS / "auth-view.png")

    def test_22_auth_disable_and_delete(self):
        uid = self.auth_create(email=f"gone-{uuid.uuid4().hex[:6]}@example.com", password="secret-123")
        self.open("#/auth")
        self.auth_row(uid)
        self.auth_action(uid, "disable")
        self.wait_attribute(
            f'table[data-testid="auth-users"] tr[data-uid="{uid}"]',
            "data-disabled",
            lambda v: v == "true",
            "Disable does not disable the user",
        )
        self.assertTrue(self.auth_lookup(uid).get("disabled"), "the Auth emulator does not have the user disabled")
        self.snapshot("disabled")
        self.auth_action(uid, "enable")
        self.wait_attribute(
            f'table[data-testid="auth-users"] tr[data-uid="{uid}"]',
            "data-disabled",
            lambda v: v == "false",
            "Enable does not enable the user",
        )
        self.assertFalse(self.auth_lookup(uid).get("disabled"))
        self.auth_action(uid, "disable")
        self.wait_attribute(
            f'table[data-testid="auth-users"] tr[data-uid="{uid}"]',
            "data-disabled",
            lambda v: v == "true",
            "Disable does not disable the user again",
        )

        self.auth_action(uid, "delete")
        self.click('button[data-testid="auth-delete-confirm"]')
        self.wait(
            lambda d: not self.find_all(f'table[data-testid="auth-users"] tr[data-uid="{uid}"]'),
            "the deleted user still shows",
        )
        self.assertIsNone(self.auth_lookup(uid))

    def test_23_auth_oob_codes(self):
        email = f"forgetful-{uuid.uuid4().hex[:6]}@example.com"
        self.auth_create(email=email, password="secret-123")
        self.open("#/auth")
        self.find('table[data-testid="auth-oob-codes"]')
        status, body = http(
            "POST",
            f"{self.base}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake",
            {"requestType": "PASSWORD_RESET", "email": email},
        )
        self.assertEqual(status, 200, body)
        self.click('button[data-testid="auth-oob-refresh"]')
        row = self.wait(
            lambda d: next(
                (
                    r
                    for r in self.find_all('table[data-testid="auth-oob-codes"] tr[data-oob-code]')
                    if email in r.text and r.get_attribute("data-request-type") == "PASSWORD_RESET"
                ),
                None,
            ),
            "the password reset code does not show",
        )
        code = row.get_attribute("data-oob-code")
        link = row.find_element(By.CSS_SELECTOR, 'td[data-field="oobLink"] a')
        self.assertIn(code, link.get_attribute("href"))
        status, codes = http("GET", f"{self.base}/emulator/v1/projects/{self.auth_project()}/oobCodes")
        self.assertIn(code, [c["oobCode"] for c in codes["oobCodes"]])
        self.driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)

    def test_24_auth_clear_all(self):
        for n in range(3):
            self.auth_create(email=f"bulk-{n}-{uuid.uuid4().hex[:6]}@example.com")
        self.open("#/auth")
        self.wait(lambda d: len(self.find_all('table[data-testid="auth-users"] tr[data-uid]')) >= 3, "users missing")
        self.click('button[data-testid="auth-clear-all"]')
        self.snapshot("confirm")
        self.click('button[data-testid="auth-clear-all-confirm"]')
        self.wait(
            lambda d: not self.find_all('table[data-testid="auth-users"] tr[data-uid]'),
            "users still show after deleting them all",
        )
        status, body = self.auth_admin("GET", ":batchGet?maxResults=10")
        self.assertEqual(status, 200, body)
        self.assertFalse(body.get("users"), body)

    def test_25_operation_as_auth_user(self):
        # Signing in as a disabled user is refused: the browser logs that answer.
        self.expected_log = (r"accounts:signInWithCustomToken.* - Failed to load resource: .* status of 400\b",)
        uid = f"real-reader-{uuid.uuid4().hex[:6]}"
        self.auth_create(localId=uid, email=f"{uid}@example.com", password="secret-123")
        status, body = self.auth_admin("POST", ":update", {"localId": uid, "customAttributes": '{"librarian":true}'})
        self.assertEqual(status, 200, body)
        self.open(self.operation_route("upsertUser"), view="operations")
        self.fill('form[data-testid="variables-form"] [data-variable="username"]', "console-auth-user")
        Select(self.find('select[data-testid="caller-mode"]')).select_by_value("authUser")
        picker = self.visible('select[data-testid="caller-auth-user"]')
        self.wait(
            lambda d: any(o.get_attribute("value") == uid for o in Select(picker).options),
            "the Auth emulator's user is not offered",
        )
        Select(picker).select_by_value(uid)
        self.click('button[data-testid="operation-run"]')
        self.wait_attribute(
            '[data-testid="result-status"]', "data-status", lambda s: s == "200", "running as the real user fails"
        )
        status_text = self.wait_text(
            '[data-testid="caller-auth-status"]', lambda t: "signed in as" in t, "the sign-in is not shown"
        )
        self.assertIn('"librarian":true', status_text, "the ID token does not carry the user's claims")
        stored = self.admin("query ($id: String!) { user(id: $id) { username } }", {"id": uid})
        self.assertEqual(stored["user"], {"username": "console-auth-user"})
        self.snapshot("signed-in")

        # A disabled user cannot sign in: the run is refused before any operation is sent.
        status, body = self.auth_admin("POST", ":update", {"localId": uid, "disableUser": True})
        self.assertEqual(status, 200, body)
        self.click('button[data-testid="operation-run"]')
        self.wait_text('.ops-caller [role="alert"]', lambda t: "USER_DISABLED" in t, "a disabled user is not refused")


# --------------------------------------------------------------------------------------------------------------
# --no-auth


class NoAuthTests(ConsoleTestCase):
    @classmethod
    def setUpClass(cls):
        cls.start_suite(extra=["--no-auth"])

    @classmethod
    def tearDownClass(cls):
        cls.stop_suite()

    def test_26_auth_view_when_auth_is_off(self):
        status, info = http("GET", self.base + "/emulator/info")
        self.assertEqual(status, 200, info)
        self.assertNotIn("auth", info)
        self.open("#/auth")
        self.wait_text('[data-testid="auth-off"]', lambda t: "off" in t, "the view does not say auth is off")
        self.assertEqual(self.find_all('table[data-testid="auth-users"]'), [])
        self.open(f"#/operations/{CONNECTOR}/upsertUser", view="operations")
        modes = [o.get_attribute("value") for o in Select(self.find('select[data-testid="caller-mode"]')).options]
        self.assertEqual(modes, ["unauthenticated", "user", "admin"])

# --------------------------------------------------------------------------------------------------------------
# --no-console


class NoConsoleTests(unittest.TestCase):
    def setUp(self):
        self.workdir = make_workdir()
        self.emulator = Emulator(self.workdir, seed=False, extra=["--no-console"]).start()

    def tearDown(self):
        self.emulator.stop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def test_no_console_answers_404(self):
        for path in ("/", "/console/app.js", "/console/index.html", "/favicon.ico", "/emulator/console/model"):
            status, body = http("GET", self.emulator.url + path)
            self.assertEqual(status, 404, f"GET {path} with --no-console")
            self.assertIsInstance(body, dict, f"GET {path} does not answer JSON")
        status, info = http("GET", self.emulator.url + "/emulator/info")
        self.assertEqual(status, 200)
        self.assertEqual(info["services"][0]["serviceId"], SERVICE)


def main():
    if not BINARY.exists():
        sys.exit(f"{BINARY} is missing: run `swift build --product dataconnect` first")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for old in [*ARTIFACTS.glob("*.png"), *ARTIFACTS.glob("emulator-*.log")]:
        old.unlink()
    try:
        program = unittest.main(module=__name__, exit=False, verbosity=2)
    except KeyboardInterrupt:
        print("\ninterrupted: stopping the browser and the emulator", file=sys.stderr)
        _stop_everything()
        sys.exit(130)
    print(f"\n{len(SCREENSHOTS)} screenshot(s) in {ARTIFACTS.relative_to(ROOT)}/:")
    for path in SCREENSHOTS:
        print(f"  {path.relative_to(ROOT)}")
    sys.exit(0 if program.result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
