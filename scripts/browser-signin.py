"""The browser sign-in (OAuth 2.0 + PKCE, docs/API.md) in a real browser, against a provider nobody here wrote.

Processes on loopback: the fake OpenID Connect provider (scripts/fake_oidc_provider.py, Authlib), an "app"
redirect catcher (http.server, path /callback, it records each query it gets) and `tokenvend serve --config` on
SQLite in a temporary folder, its provider `corp` configured through discovery with the catcher's loopback redirect
URI registered as `http://127.0.0.1/callback` (any port, RFC 8252 §7.3) and `identity.flowLifetimeSeconds` 5.
Selenium drives headless Chromium through `GET /auth/oauth/corp?...`, the provider's login form and back, and the
script plays the app: it checks `state`, redeems the code at `POST /auth/token` and reads `GET /auth/me`.

Checked: a first sign-in creates the account (`created` true) and a second one for the same username finds it
(`created` false, same user id, sent form-encoded as AppAuth does); and each failure path:
- a callback whose state is not the app's: the app refuses it;
- a provider callback with a tampered tokenvend state, or a corp flow's state at corppost's callback (mix-up):
  tokenvend's 400 page, nothing sent to the app, no token request at the provider;
- a wrong code_verifier: 400 invalid_grant, and the code is spent;
- a reused code: 400 invalid_grant, and the session it issued is revoked (its refresh token then gets 401);
- an unregistered redirect URI or `plain` PKCE: 400 page, the provider never asked;
- an expired flow (6 s on the provider's form): 400 page;
- a provider that denies: the app gets error=access_denied with its state;
- an ID token with another nonce, issuer or audience, expired, or signed by a key the provider does not publish:
  the app gets error=access_denied, error_description=invalid_grant, and no account is made.
A second fake provider, `corppost`, accepts only client_secret_post, which tokenvend must then use. Last,
tokenvend's log must not hold the client secret nor any code, access token or ID token the providers issued.

usage: python3 scripts/browser-signin.py TOKENVEND_BINARY      (ok/FAIL lines; exit 1 on a failure)
Needs authlib, flask, selenium (pip) and chromium, chromium-driver (Debian): scripts/browser-signin.sh installs them.
"""
import base64
import hashlib
import http.server
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

HERE = os.path.dirname(os.path.abspath(__file__))
PROVIDER = "corp"
POST_PROVIDER = "corppost"  # the same, its client authenticating with client_secret_post
CLIENT_ID = "tokenvend-browser-test"
CLIENT_SECRET = "fake-provider-secret-" + secrets.token_urlsafe(24)
FLOW_LIFETIME = 5
failures = 0


def report(ok, text):
    global failures
    print(("ok   - " if ok else "FAIL - ") + text, file=sys.stdout if ok else sys.stderr, flush=True)
    if not ok:
        failures += 1


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def chrome(work, javascript=True):
    """Headless Chromium with its network log on, its profile in `work`; `javascript=False` blocks every script."""
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--user-data-dir={os.path.join(work, 'chrome')}"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(options=options, service=Service(driver_path))
    driver.set_page_load_timeout(30)
    return driver


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def http_call(method, url, body=None, form=None, bearer=None):
    """(status, headers, parsed JSON body or text); never follows a redirect."""
    data, content_type = None, None
    if body is not None:
        data, content_type = json.dumps(body).encode(), "application/json"
    elif form is not None:
        data, content_type = urllib.parse.urlencode(form).encode(), "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, method=method, data=data)
    if content_type:
        req.add_header("Content-Type", content_type)
    if bearer:
        req.add_header("Authorization", "Bearer " + bearer)

    class NoRedirect(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, *args, **kwargs):
            return None

    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(req, timeout=15) as response:
            status, headers, raw = response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        status, headers, raw = error.code, error.headers, error.read()
    try:
        parsed = json.loads(raw) if raw else None
    except ValueError:
        parsed = raw.decode(errors="replace")
    return status, headers, parsed


class Catcher(http.server.BaseHTTPRequestHandler):
    """The app's loopback redirect URI: records the query of each GET /callback."""
    calls = []
    lock = threading.Lock()

    def do_GET(self):
        parsed = urllib.parse.urlsplit(self.path)
        if parsed.path == "/callback":
            with Catcher.lock:
                Catcher.calls.append(urllib.parse.parse_qs(parsed.query, keep_blank_values=True))
            body = b"<!doctype html><html><body><p id='caught'>back in the app</p></body></html>"
            self.send_response(200)
        else:
            body = b"not here"
            self.send_response(404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

    @classmethod
    def take(cls):
        with cls.lock:
            calls, cls.calls = cls.calls, []
        return calls


class Harness:
    """The three processes and the browser; `close` ends whatever `start` got to start."""

    def __init__(self, work):
        self.work = work
        self.processes = []
        self.catcher = None
        self.driver = None
        self.server_log = self.provider_log = None

    def start(self, binary):
        work = self.work
        self.catcher = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Catcher)
        threading.Thread(target=self.catcher.serve_forever, daemon=True).start()
        self.app_redirect = f"http://127.0.0.1:{self.catcher.server_address[1]}/callback"
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.callback = f"{self.base}/auth/oauth/{PROVIDER}/callback"  # the corp provider's
        self.provider_log = open(os.path.join(work, "provider.log"), "w")
        self.provider = self.launch_provider(PROVIDER, "basic")
        self.post_provider = self.launch_provider(POST_PROVIDER, "post")
        entry = {"clientId": CLIENT_ID, "clientSecret": CLIENT_SECRET, "redirectURIs": ["http://127.0.0.1/callback"]}
        config = {
            "server": {"host": "127.0.0.1", "port": port, "publicURL": self.base},
            "database": {"path": os.path.join(work, "tokenvend.sqlite")},
            "password": {"timeCost": 1, "memoryCost": 8192},
            "rateLimit": {"requestsPerAddressPerMinute": 1000},
            "log": {"level": "debug"},
            "identity": {"flowLifetimeSeconds": FLOW_LIFETIME},
            "identityProviders": {
                PROVIDER: dict(entry, discoveryURL=f"{self.provider}/.well-known/openid-configuration"),
                POST_PROVIDER: dict(entry, discoveryURL=f"{self.post_provider}/.well-known/openid-configuration",
                                    clientAuthentication="client_secret_post")},
        }
        config_path = os.path.join(work, "tokenvend.json")
        with open(config_path, "w") as file:
            json.dump(config, file)
        # Only the file's settings: an inherited TOKENVEND_* (such as TOKENVEND_BIN) is not a server key.
        environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
        self.server_log = open(os.path.join(work, "tokenvend.log"), "w")
        server = subprocess.Popen([binary, "serve", "--config", config_path], env=environment, cwd=work,
                                  stdout=self.server_log, stderr=self.server_log)
        self.processes.append(server)
        for _ in range(400):
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None:
                    raise RuntimeError(f"tokenvend exited with {server.returncode} (its log follows)")
                time.sleep(0.05)
        else:
            raise RuntimeError("tokenvend did not answer /healthz (its log follows)")
        self.driver = chrome(work)

    def launch_provider(self, name, token_auth):
        """Starts a fake provider whose only redirect URI is tokenvend's callback for `name`; returns its URL."""
        provider = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fake_oidc_provider.py"), "--port", "0", "--client-id", CLIENT_ID,
             "--client-secret", CLIENT_SECRET, "--redirect-uri", f"{self.base}/auth/oauth/{name}/callback",
             "--token-auth", token_auth],
            stdout=subprocess.PIPE, stderr=self.provider_log, text=True)
        self.processes.append(provider)
        line = provider.stdout.readline().strip()
        if not line.isdigit():
            raise RuntimeError(f"the fake provider for {name} did not start (its log follows)")
        return f"http://127.0.0.1:{line}"

    def log(self, name):
        with open(os.path.join(self.work, name)) as file:
            return file.read()[-4000:]

    def close(self):
        if self.driver is not None:
            try:
                self.driver.quit()
            except Exception:  # noqa: BLE001: a browser already gone
                pass
        for process in reversed(self.processes):
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        if self.catcher is not None:
            self.catcher.shutdown()
            self.catcher.server_close()
        for log in (self.server_log, self.provider_log):
            if log is not None:
                log.close()

    # -- browser --------------------------------------------------------------------------------------------------

    def drain_network_log(self):
        self.driver.get_log("performance")

    def documents(self):
        """(status, url) of each page the browser loaded since the last drain, redirects included."""
        seen = []
        for entry in self.driver.get_log("performance"):
            message = json.loads(entry["message"])["message"]
            params = message.get("params", {})
            if message["method"] == "Network.requestWillBeSent" and params.get("redirectResponse"):
                seen.append((params["redirectResponse"]["status"], params["redirectResponse"]["url"]))
            elif message["method"] == "Network.responseReceived" and params.get("type") == "Document":
                seen.append((params["response"]["status"], params["response"]["url"]))
        return seen

    def provider_requests(self, path, provider=None):
        status, _, served = http_call("GET", f"{provider or self.provider}/_fake/requests")
        assert status == 200, status
        return sum(1 for item in served if item["path"] == path)

    def open_sign_in(self, app_state, challenge, redirect_uri=None, method="S256", provider=PROVIDER):
        """Opens GET /auth/oauth/corp like the app; returns the URL the browser ends at."""
        query = urllib.parse.urlencode({
            "redirect_uri": redirect_uri or self.app_redirect, "code_challenge": challenge,
            "code_challenge_method": method, "state": app_state})
        self.drain_network_log()
        Catcher.take()
        self.driver.get(f"{self.base}/auth/oauth/{provider}?{query}")
        return self.driver.current_url

    def wait_for_form(self):
        WebDriverWait(self.driver, 15).until(lambda driver: driver.find_elements(By.ID, "username"))
        return self.driver.current_url

    def submit(self, username, button="submit"):
        """Fills the provider's form and waits until the browser has left the provider."""
        field = self.driver.find_element(By.ID, "username")
        field.clear()
        field.send_keys(username)
        self.driver.find_element(By.ID, button).click()
        try:
            WebDriverWait(self.driver, 20).until(
                lambda driver: not driver.current_url.startswith(self.provider)
                and driver.execute_script("return document.readyState") == "complete")
        except TimeoutException:
            pass
        return self.driver.current_url

    def sign_in(self, username, app_state=None, provider=PROVIDER):
        """A whole browser sign-in; returns (verifier, app state, callback query or None, provider URL)."""
        verifier, challenge = pkce_pair()
        app_state = app_state or secrets.token_urlsafe(16)
        self.open_sign_in(app_state, challenge, provider=provider)
        provider_url = self.wait_for_form()
        self.submit(username)
        calls = Catcher.take()
        return verifier, app_state, (calls[-1] if calls else None), provider_url

    def redeem(self, code, verifier, redirect_uri=None, form=False):
        payload = {"grant_type": "authorization_code", "code": code, "code_verifier": verifier,
                   "redirect_uri": redirect_uri or self.app_redirect}
        if form:
            return http_call("POST", f"{self.base}/auth/token", form=payload)
        return http_call("POST", f"{self.base}/auth/token", body=payload)


def single(query, name):
    values = (query or {}).get(name, [])
    return values[0] if len(values) == 1 else None


def app_accepts(query, expected_state):
    """The app's own check of its redirect: exactly one code and its own state, no error."""
    return (query is not None and "error" not in query and single(query, "code") is not None
            and secrets.compare_digest(single(query, "state") or "", expected_state))


def is_base64url_token(text, length=43):
    alphabet = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
    return isinstance(text, str) and len(text) == length and set(text) <= alphabet


def refused_page(harness, documents, what):
    """The browser's last page is tokenvend's own 400, nothing reached the app."""
    last = documents[-1] if documents else (None, "")
    on_tokenvend = harness.driver.current_url.startswith(harness.base)
    caught = Catcher.take()
    report(last[0] == 400 and last[1].startswith(harness.base) and on_tokenvend and not caught,
           f"{what}: the browser stops at tokenvend's 400 page, no redirect to the app "
           f"(last page {last[0]} {last[1].split('?')[0]}, app called {len(caught)} times)")


def scenario(name, function, harness):
    try:
        function(harness)
    except Exception as error:  # noqa: BLE001: one broken scenario must not hide the others
        report(False, f"{name}: {type(error).__name__}: {error}")


def happy_path(harness):
    verifier, app_state, query, provider_url = harness.sign_in("ada")
    provider = urllib.parse.parse_qs(urllib.parse.urlsplit(provider_url).query)
    report(provider_url.startswith(f"{harness.provider}/authorize?")
           and single(provider, "response_type") == "code" and single(provider, "client_id") == CLIENT_ID
           and single(provider, "redirect_uri") == harness.callback
           and single(provider, "code_challenge_method") == "S256"
           and is_base64url_token(single(provider, "code_challenge"))
           and is_base64url_token(single(provider, "state")) and single(provider, "state") != app_state
           and is_base64url_token(single(provider, "nonce")) and "openid" in (single(provider, "scope") or "").split(),
           "GET /auth/oauth/corp sends the browser to the provider's form with tokenvend's own state, nonce and "
           "S256 challenge, and its callback as redirect_uri")
    report(app_accepts(query, app_state) and is_base64url_token(single(query, "code")),
           "after the form the browser lands on the app's loopback redirect URI with a 43-character code and the "
           "app's state")
    status, headers, body = harness.redeem(single(query, "code"), verifier)
    ok = (status == 200 and isinstance(body, dict) and body.get("created") is True and body.get("accessToken")
          and body.get("refreshToken") and body.get("tokenType") == "Bearer"
          and (headers.get("Cache-Control") or "").find("no-store") >= 0)
    report(bool(ok), f"POST /auth/token answers 200 with tokens and created: true, Cache-Control no-store ({status})")
    if not ok:
        return
    user = body.get("user") or {}
    me_status, _, me = http_call("GET", f"{harness.base}/auth/me", bearer=body["accessToken"])
    report(me_status == 200 and me.get("sub") == user.get("id") and me.get("email") == "ada@example.com",
           f"GET /auth/me with the access token shows the new user with the provider's verified email ({me_status})")
    verifier, app_state, query, _ = harness.sign_in("ada")
    status, _, again = harness.redeem(single(query, "code") if query else "", verifier, form=True)
    report(status == 200 and again.get("created") is False and (again.get("user") or {}).get("id") == user.get("id"),
           f"a second sign-in as the same username (code redeemed form-encoded) finds the account: created false, "
           f"same user id ({status})")


def app_state_mismatch(harness):
    # The browser completes a sign-in that someone else started (state "attacker"), while the app waits for its own.
    expected = secrets.token_urlsafe(16)
    verifier, started, query, _ = harness.sign_in("mallory", app_state="attacker-" + secrets.token_urlsafe(8))
    report(single(query, "state") == started and not app_accepts(query, expected),
           "a callback carrying another state than the app's own is refused by the app (tokenvend echoes the state "
           "it was given, byte for byte)")


def tampered_provider_state(harness):
    verifier, challenge = pkce_pair()
    harness.open_sign_in("app-state-1", challenge)
    provider_url = harness.wait_for_form()
    parts = urllib.parse.urlsplit(provider_url)
    query = urllib.parse.parse_qs(parts.query)
    real = single(query, "state")
    query["state"] = [real[:-2] + ("AA" if real[-2:] != "AA" else "BB")]
    tampered = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query, doseq=True)))
    harness.driver.get(tampered)
    harness.wait_for_form()
    harness.drain_network_log()
    exchanges = harness.provider_requests("/token")
    harness.submit("trudy")
    documents = harness.documents()
    reached = any(url.startswith(harness.callback) and "state=" in url for _, url in documents)
    report(reached, "the provider calls tokenvend back with a genuine code and the tampered state")
    refused_page(harness, documents, "a provider callback with a tampered tokenvend state")
    report(harness.provider_requests("/token") == exchanges,
           "a tampered state: tokenvend never redeems the provider's code")


def provider_mix_up(harness):
    """A genuine state of a corp flow presented at corppost's callback (a mix-up attack) is refused."""
    verifier, challenge = pkce_pair()
    harness.open_sign_in("app-state-4", challenge)
    provider_url = harness.wait_for_form()
    state = single(urllib.parse.parse_qs(urllib.parse.urlsplit(provider_url).query), "state")
    exchanges = harness.provider_requests("/token") + harness.provider_requests("/token", harness.post_provider)
    harness.drain_network_log()
    harness.driver.get(f"{harness.base}/auth/oauth/{POST_PROVIDER}/callback?"
                       + urllib.parse.urlencode({"code": "mixed-up-" + secrets.token_urlsafe(8), "state": state}))
    refused_page(harness, harness.documents(), f"a {PROVIDER} flow's state at {POST_PROVIDER}'s callback")
    after = harness.provider_requests("/token") + harness.provider_requests("/token", harness.post_provider)
    report(after == exchanges, "a mix-up: tokenvend calls neither provider's token endpoint")


def wrong_verifier(harness):
    verifier, app_state, query, _ = harness.sign_in("bob")
    code = single(query, "code")
    other, _ = pkce_pair()
    status, headers, body = harness.redeem(code, other)
    report(status == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant"
           and "error_description" in body,
           f"a wrong code_verifier gets 400 invalid_grant with an RFC 6749 error body ({status} {body})")
    status, _, body = harness.redeem(code, verifier)
    report(status == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant",
           f"the code is spent by that failed presentation: the right verifier then gets 400 invalid_grant ({status})")


def reused_code(harness):
    verifier, app_state, query, _ = harness.sign_in("carol")
    code = single(query, "code")
    status, _, first = harness.redeem(code, verifier)
    report(status == 200 and isinstance(first, dict) and first.get("refreshToken"),
           f"the first presentation of a code is redeemed ({status})")
    status, _, body = harness.redeem(code, verifier)
    report(status == 400 and isinstance(body, dict) and body.get("error") == "invalid_grant",
           f"presenting the same code again gets 400 invalid_grant ({status} {body})")
    if not isinstance(first, dict) or not first.get("refreshToken"):
        return
    status, _, body = http_call("POST", f"{harness.base}/auth/refresh", body={"refreshToken": first["refreshToken"]})
    report(status == 401 and isinstance(body, dict) and body.get("error") == "invalid_grant",
           f"the replay revoked the first session: its refresh token gets 401 invalid_grant ({status})")
    status, _, _ = http_call("GET", f"{harness.base}/auth/me", bearer=first["accessToken"])
    report(status == 401, f"and its access token gets 401 at GET /auth/me ({status})")


def unregistered_redirect(harness):
    for what, uri, method in (
            ("an unregistered https redirect URI", "https://evil.example/callback", "S256"),
            ("a loopback redirect URI on another path", harness.app_redirect.replace("/callback", "/other"), "S256"),
            ("a localhost redirect URI", harness.app_redirect.replace("127.0.0.1", "localhost"), "S256"),
            ("code_challenge_method plain", None, "plain")):
        before = harness.provider_requests("/authorize")
        verifier, challenge = pkce_pair()
        harness.open_sign_in("app-state-2", verifier if method == "plain" else challenge, redirect_uri=uri,
                             method=method)
        documents = harness.documents()
        refused_page(harness, documents, what)
        body = harness.driver.find_element(By.TAG_NAME, "body").text
        report("invalid_request" in body and harness.provider_requests("/authorize") == before,
               f"{what}: the page names invalid_request and the provider was never asked")


def expired_flow(harness):
    verifier, challenge = pkce_pair()
    harness.open_sign_in("app-state-3", challenge)
    harness.wait_for_form()
    time.sleep(FLOW_LIFETIME + 1)
    harness.drain_network_log()
    exchanges = harness.provider_requests("/token")
    harness.submit("dave")
    documents = harness.documents()
    refused_page(harness, documents, f"a flow older than identity.flowLifetimeSeconds ({FLOW_LIFETIME} s)")
    report(harness.provider_requests("/token") == exchanges,
           "an expired flow: tokenvend never redeems the provider's code")


def provider_denies(harness):
    verifier, challenge = pkce_pair()
    app_state = "app-state-" + secrets.token_urlsafe(8)
    harness.open_sign_in(app_state, challenge)
    harness.wait_for_form()
    harness.submit("erin", button="deny")
    calls = Catcher.take()
    query = calls[-1] if calls else None
    report(query is not None and single(query, "error") == "access_denied" and single(query, "state") == app_state
           and "code" not in query,
           f"the provider's Deny sends the app error=access_denied with its state and no code ({query})")


def spoiled_id_tokens(harness):
    """The provider's ID token fails one check each time: the app gets an error, no code, and no account is made."""
    try:
        for fault, what in (("nonce", "another nonce than the flow's"), ("issuer", "another issuer"),
                            ("audience", "another audience"), ("expired", "an exp in the past"),
                            ("signature", "a signature by a key the provider does not publish")):
            status, _, _ = http_call("POST", f"{harness.provider}/_fake/misbehave", form={"idToken": fault})
            assert status == 200, f"the provider refused misbehave {fault}: {status}"
            verifier, app_state, query, _ = harness.sign_in(f"grace-{fault}")
            _, _, issued = http_call("GET", f"{harness.provider}/_fake/issued")
            payload = issued["idTokens"][-1].split(".")[1]
            claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
            spoiled = {"nonce": str(claims.get("nonce")).startswith("not-"),
                       "issuer": str(claims.get("iss")).endswith("/elsewhere"),
                       "audience": claims.get("aud") == ["another-client"],
                       "expired": claims.get("exp", 0) < time.time(),
                       "signature": claims.get("sub") == f"grace-{fault}"}[fault]
            assert spoiled and claims.get("sub") == f"grace-{fault}", f"the provider's {fault} token is not spoiled"
            report(query is not None and single(query, "error") == "access_denied"
                   and single(query, "error_description") == "invalid_grant"
                   and single(query, "state") == app_state and "code" not in query,
                   f"an ID token with {what}: the app gets error=access_denied, error_description=invalid_grant and "
                   f"its state, no code ({query})")
    finally:
        http_call("POST", f"{harness.provider}/_fake/misbehave", form={"idToken": ""})
    verifier, app_state, query, _ = harness.sign_in("grace-nonce")
    status, _, body = harness.redeem(single(query, "code") if query else "", verifier)
    report(status == 200 and isinstance(body, dict) and body.get("created") is True,
           f"no account was made from a refused ID token: a good one for the same subject creates it ({status})")


def secret_post(harness):
    verifier, app_state, query, _ = harness.sign_in("frank", provider=POST_PROVIDER)
    report(app_accepts(query, app_state),
           f"{POST_PROVIDER} (client_secret_post only): the browser comes back to the app with a code")
    status, _, body = harness.redeem(single(query, "code") if query else "", verifier)
    exchanges = harness.provider_requests("/token", provider=harness.post_provider)
    report(status == 200 and isinstance(body, dict) and body.get("created") is True and exchanges == 1,
           f"{POST_PROVIDER}: tokenvend authenticated with client_secret_post at the provider that accepts nothing "
           f"else, and the code redeems ({status}, {exchanges} token request)")


def nothing_secret_logged(harness):
    status, _, issued = http_call("GET", f"{harness.provider}/_fake/issued")
    post_status, _, more = http_call("GET", f"{harness.post_provider}/_fake/issued")
    status = status if post_status == 200 else post_status
    issued = {name: issued[name] + more[name] for name in issued}
    harness.server_log.flush()
    with open(os.path.join(harness.work, "tokenvend.log")) as file:
        log = file.read()
    secrets_seen = [CLIENT_SECRET] + issued["codes"] + issued["accessTokens"] + issued["idTokens"]
    leaked = [value[:8] + "…" for value in secrets_seen if value and value in log]
    report(status == 200 and len(issued["idTokens"]) > 0 and not leaked,
           f"tokenvend's log (level debug) holds neither the client secret nor any of the {len(issued['codes'])} "
           f"codes, {len(issued['accessTokens'])} access tokens and {len(issued['idTokens'])} ID tokens the provider "
           f"issued (leaked: {leaked})")


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    # make's SIGTERM (or ^C) still ends the browser, the provider and tokenvend through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="browser-signin-") as work:
        harness = Harness(work)
        try:
            harness.start(os.path.abspath(sys.argv[1]))
            for name, function in (
                    ("first and second sign-in", happy_path), ("state mismatch at the app", app_state_mismatch),
                    ("tampered provider state", tampered_provider_state), ("provider mix-up", provider_mix_up),
                    ("wrong verifier", wrong_verifier),
                    ("reused code", reused_code), ("unregistered redirect URI", unregistered_redirect),
                    ("expired flow", expired_flow), ("provider denies", provider_denies),
                    ("spoiled ID tokens", spoiled_id_tokens), ("client_secret_post", secret_post),
                    ("secrets in the log", nothing_secret_logged)):
                scenario(name, function, harness)
        except Exception as error:  # noqa: BLE001: set-up failed, say why
            report(False, f"set-up: {type(error).__name__}: {error}")
        finally:
            harness.close()
            if failures:
                for name in ("tokenvend.log", "provider.log"):
                    if os.path.exists(os.path.join(work, name)):
                        print(f"--- {name} (tail) ---\n" + harness.log(name), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
