"""The account-deletion web page (GET /account/delete, docs/API.md) in headless Chromium with JavaScript disabled.

The page is the link an operator gives Google Play: a user without the app asks for a deletion code by email and
confirms it with plain HTML forms. Processes on loopback: `tokenvend serve --config` on SQLite in a temporary
folder, email through the `file` transport into that folder (each message an .eml file). Selenium drives headless
Chromium, its JavaScript switched off (Chromium's content setting), as a user with scripts blocked would.

Checked:
- `GET /account/delete` answers 200 HTML with a strict Content-Security-Policy (`default-src 'none'`, no script
  source, `form-action 'self'`, `frame-ancestors 'none'`), `X-Frame-Options: DENY` or the CSP's frame-ancestors,
  `Cache-Control: no-store`, and loads nothing from another origin;
- the user types the address into the page's form and submits it; the page says a code is on its way (the same
  for an unknown address, and no message is written for it);
- the code is read from the .eml file; a wrong code shows the page again with an error and deletes nothing;
- the right code shows the "deleted" page; the account is gone (login with its password fails with 401, its
  refresh token gets 401), the same address registers again (201), and the code cannot be used twice.

usage: python3 scripts/browser-account-delete.py TOKENVEND_BINARY      (ok/FAIL lines; exit 1 on a failure)
Needs selenium (pip) and chromium, chromium-driver (Debian): scripts/browser-signin.sh installs them and runs this.
"""
import email
import email.policy
import importlib.util
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

# The browser sign-in script's helpers: ok/FAIL lines, free ports, plain HTTP calls, the headless browser.
_SPEC = importlib.util.spec_from_file_location(
    "browser_signin", os.path.join(os.path.dirname(os.path.abspath(__file__)), "browser-signin.py"))
signin = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(signin)
report, free_port, http_call = signin.report, signin.free_port, signin.http_call

EMAIL = "leaving@example.com"
PASSWORD = "a long passphrase to delete"


class Harness:
    """tokenvend and the browser; `close` ends whatever `start` got to start."""

    def __init__(self, work):
        self.work = work
        self.outbox = os.path.join(work, "outbox")
        self.server = self.driver = self.server_log = None
        self.seen_messages = set()

    def start(self, binary):
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        config = {
            "server": {"host": "127.0.0.1", "port": port, "publicURL": self.base},
            "database": {"path": os.path.join(self.work, "tokenvend.sqlite")},
            "password": {"timeCost": 1, "memoryCost": 8192},
            "rateLimit": {"requestsPerAddressPerMinute": 1000},
            "email": {"transport": "file", "fileDirectory": self.outbox},
        }
        config_path = os.path.join(self.work, "tokenvend.json")
        with open(config_path, "w") as file:
            json.dump(config, file)
        environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
        self.server_log = open(os.path.join(self.work, "tokenvend.log"), "w")
        self.server = subprocess.Popen([binary, "serve", "--config", config_path], env=environment, cwd=self.work,
                                       stdout=self.server_log, stderr=self.server_log)
        for _ in range(400):
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=2).read()
                break
            except OSError:
                if self.server.poll() is not None:
                    raise RuntimeError(f"tokenvend exited with {self.server.returncode} (its log follows)")
                time.sleep(0.05)
        else:
            raise RuntimeError("tokenvend did not answer /healthz (its log follows)")
        # JavaScript off for every page, as a user who blocks scripts has it.
        self.driver = signin.chrome(self.work, javascript=False)

    def close(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # noqa: BLE001: a browser already gone
                pass
        if self.server is not None and self.server.poll() is None:
            self.server.terminate()
            try:
                self.server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.server.kill()
                self.server.wait()
        if self.server_log is not None:
            self.server_log.close()

    def log(self):
        with open(os.path.join(self.work, "tokenvend.log")) as file:
            return file.read()[-4000:]

    def requests_seen(self):
        """The URLs the browser requested since the last call (documents, images, styles, scripts…)."""
        urls = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            if message["method"] == "Network.requestWillBeSent":
                urls.append(message["params"]["request"]["url"])
        return urls

    def messages_to(self, recipient):
        """The plain-text bodies of the .eml files to `recipient` not looked at before."""
        found = []
        names = sorted(os.listdir(self.outbox)) if os.path.isdir(self.outbox) else []
        for name in names:
            if name in self.seen_messages or not name.endswith(".eml"):
                continue
            with open(os.path.join(self.outbox, name), "rb") as handle:
                message = email.message_from_bytes(handle.read(), policy=email.policy.default)
            if recipient in str(message["To"]):
                self.seen_messages.add(name)
                found.append(message.get_body(("plain",)).get_content())
        return found

    def code(self, recipient):
        """The six-digit code of the next message to `recipient`; the sender writes it just after the answer."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            for text in self.messages_to(recipient):
                runs = re.findall(r"(?<![0-9])[0-9]{6}(?![0-9])", text)
                if len(runs) == 1:
                    return runs[0]
                report(False, f"message to {recipient}: {len(runs)} six-digit runs in the plain text")
                return None
            time.sleep(0.05)
        report(False, f"no message to {recipient} within 20 s")
        return None

    def submit_form(self, values):
        """Fills the page's form that has inputs named after `values`' keys and submits it with its button."""
        forms = [form for form in self.driver.find_elements(By.TAG_NAME, "form")
                 if all(form.find_elements(By.NAME, name) for name in values)]
        if not forms:
            raise RuntimeError(f"no form with {sorted(values)} on {self.driver.current_url}")
        form = forms[0]
        for name, value in values.items():
            field = form.find_element(By.NAME, name)
            if field.get_attribute("type") == "hidden":
                continue
            field.clear()
            field.send_keys(value)
        buttons = form.find_elements(By.CSS_SELECTOR, "button, input[type=submit]")
        if not buttons:
            raise RuntimeError("the form has no submit button")
        old = self.driver.find_element(By.TAG_NAME, "html")
        buttons[0].click()
        WebDriverWait(self.driver, 15).until(lambda driver: stale(old))

    def text(self):
        return self.driver.find_element(By.TAG_NAME, "body").text


def stale(element):
    try:
        element.is_enabled()
        return False
    except Exception:  # noqa: BLE001: StaleElementReferenceException: a new page loaded
        return True


def page_headers(harness):
    """The security headers of GET /account/delete."""
    status, headers, body = http_call("GET", f"{harness.base}/account/delete")
    report(status == 200, f"GET /account/delete answers 200 (got {status})")
    report("text/html" in (headers.get("Content-Type") or ""), "the page is text/html")
    csp = headers.get("Content-Security-Policy") or ""
    directives = {part.strip().split(" ")[0]: part.strip() for part in csp.split(";") if part.strip()}
    report(directives.get("default-src") == "default-src 'none'", f"CSP default-src 'none' ({csp!r})")
    report("script-src" not in directives or "'none'" in directives["script-src"], "CSP allows no script")
    report(directives.get("form-action", "").split()[1:] == ["'self'"], "CSP form-action 'self'")
    report(directives.get("frame-ancestors") == "frame-ancestors 'none'", "CSP frame-ancestors 'none'")
    report("no-store" in (headers.get("Cache-Control") or ""), "Cache-Control: no-store")
    report((headers.get("X-Content-Type-Options") or "").lower() == "nosniff", "X-Content-Type-Options: nosniff")
    report("<script" not in str(body).lower(), "the page holds no script element")


def javascript_off(harness):
    """The browser really runs no script: a page whose script would change its title keeps it."""
    harness.driver.get("data:text/html,<title>off</title><script>document.title='on'</script>")
    report(harness.driver.title == "off", f"JavaScript is disabled in the browser (title {harness.driver.title!r})")


def delete_in_browser(harness):
    status, _, _ = http_call("POST", f"{harness.base}/auth/register", {"email": EMAIL, "password": PASSWORD})
    report(status == 201, f"the account is registered (got {status})")
    status, _, session = http_call("POST", f"{harness.base}/auth/login", {"email": EMAIL, "password": PASSWORD})
    report(status == 200, "it logs in")
    refresh_token = (session or {}).get("refreshToken", "")

    harness.requests_seen()
    harness.driver.get(f"{harness.base}/account/delete")
    loaded = harness.requests_seen()
    # The browser's own chrome:// requests (its new-tab page) are not the page's.
    foreign = [url for url in loaded if url.startswith(("http:", "https:")) and not url.startswith(harness.base)]
    report(not foreign, f"the page loads nothing from another origin ({foreign})")
    report(harness.driver.find_elements(By.NAME, "email") != [], "the page has an email field")

    # An unknown address: the same answer, and no message.
    harness.submit_form({"email": "nobody@example.com"})
    unknown_text = harness.text()
    harness.driver.get(f"{harness.base}/account/delete")
    harness.submit_form({"email": EMAIL})
    known_text = harness.text()
    report(harness.driver.find_elements(By.NAME, "code") != [], "after the address, the page asks for the code")
    report(unknown_text.replace("nobody@example.com", EMAIL) == known_text,
           "the page says the same for an unknown address")
    code = harness.code(EMAIL)
    time.sleep(0.2)  # the sender writes right after the answer: give an unknown address's message time to appear
    report(not harness.messages_to("nobody@example.com"), "no message for the unknown address")
    if code is None:
        return

    wrong = "000000" if code != "000000" else "111111"
    harness.submit_form({"email": EMAIL, "code": wrong})
    report(harness.driver.find_elements(By.NAME, "code") != [] and "deleted" not in harness.text().lower()[:200],
           "a wrong code shows the form again")
    status, _, _ = http_call("POST", f"{harness.base}/auth/login", {"email": EMAIL, "password": PASSWORD})
    report(status == 200, "after a wrong code the account still logs in")

    harness.submit_form({"email": EMAIL, "code": code})
    report("deleted" in harness.text().lower(), f"the right code shows the deleted page ({harness.text()[:120]!r})")
    report(not harness.driver.find_elements(By.NAME, "code"), "the deleted page asks for nothing more")

    status, _, body = http_call("POST", f"{harness.base}/auth/login", {"email": EMAIL, "password": PASSWORD})
    report(status == 401 and (body or {}).get("error") == "invalid_credentials",
           f"login with the deleted account's password fails with 401 invalid_credentials (got {status})")
    status, _, body = http_call("POST", f"{harness.base}/auth/refresh", {"refreshToken": refresh_token})
    report(status == 401 and (body or {}).get("error") == "invalid_grant",
           f"the deleted account's refresh token gets 401 invalid_grant (got {status})")
    status, _, body = http_call("POST", f"{harness.base}/auth/account/deletion/confirm",
                                {"email": EMAIL, "code": code})
    report(status == 400 and (body or {}).get("error") == "invalid_code", f"the code works once (got {status})")
    status, _, _ = http_call("POST", f"{harness.base}/auth/register", {"email": EMAIL, "password": PASSWORD})
    report(status == 201, f"the same email registers again (got {status})")
    status, _, _ = http_call("POST", f"{harness.base}/auth/login", {"email": EMAIL, "password": PASSWORD})
    report(status == 200, "and logs in")


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="browser-delete-") as work:
        harness = Harness(work)
        try:
            harness.start(os.path.abspath(sys.argv[1]))
            for name, function in (("JavaScript off", javascript_off), ("headers", page_headers),
                                   ("deletion in the browser", delete_in_browser)):
                try:
                    function(harness)
                except Exception as error:  # noqa: BLE001: one scenario's failure, said, and the next one runs
                    report(False, f"{name}: {type(error).__name__}: {error}")
        except Exception as error:  # noqa: BLE001: set-up failed, say why
            report(False, f"set-up: {type(error).__name__}: {error}")
        finally:
            harness.close()
            if signin.failures and os.path.exists(os.path.join(work, "tokenvend.log")):
                print("--- tokenvend.log (tail) ---\n" + harness.log(), file=sys.stderr)
    return 1 if signin.failures else 0


if __name__ == "__main__":
    sys.exit(main())
