"""Tokens vended by `POST /vend/{vendor}` checked by the vendors' own Python SDKs (issue 18, "Checked by the
vendors' own code").

Starts `tokenvend serve --config` on loopback (a free port, SQLite in a temporary folder, generated development
access-token keys) with five vendors and a `stream.keys` entry, registers a user, gives it a second customer id
(`tokenvend users set-customer-id`), signs in with a bearer token, and checks:

- LiveKit (`video`, preset `livekit`, `canPublish` false, `roomsByRole` for the role `user`): the 201
  `{server_url, participant_token}` answer; `livekit.api.TokenVerifier` accepts the token, with identity = our user
  id, the requested room and name, and the configured grants; it refuses the token under another secret or API key;
  `participant_identity` in the body → 400; a room `roomsByRole` refuses → 403; the claims match those of a token
  `livekit.api.AccessToken` builds for the same values.
- Stream Chat (`chat`, preset `stream-chat`): `stream_chat.StreamChat.create_token` for the same user, `exp` and
  `iat` gives the same header and claims; PyJWT verifies ours; `user_id` in the body → 400.
- Twilio (`twilio`, preset `twilio`, its secret in `apiKeySecretFile`): header and claims against a
  `twilio.jwt.access_token.AccessToken` with a `VideoGrant` for the same identity, room and lifetime; the twilio
  package's own `Jwt.from_jwt` and PyJWT verify ours; without `room` there is no `video` grant; a bad room → 400.
- Bloomreach Engagement customer token (`engagement`, preset `bloomreach-customer`): header
  `{alg HS256, typ JWT, kid = key id}`, payload `{sub: <the user's customer ids>, exp}`, PyJWT verifies; a subset of
  the ids is honoured; ids that are not the user's → 403.
- Errors of the endpoint: unknown vendor → 404 `not_found`; a vendor configured without keys → 503 `unavailable`
  with `Retry-After`.
- `/stream-token` still works: its HS512 token verifies in PyJWT and the answer carries `expiresAt` = its `exp`.

usage: python3 scripts/vendor-sdk-check.py TOKENVEND_BINARY      (ok/FAIL lines; exit 1 on a failure)
Needs livekit-api, stream-chat, twilio and pyjwt (pip): scripts/vendor-sdk-check.sh installs what is missing.
"""
import base64
import datetime
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

import jwt
from livekit import api as livekit
from stream_chat import StreamChat
from twilio.jwt import Jwt as TwilioJwt
from twilio.jwt.access_token import AccessToken as TwilioAccessToken
from twilio.jwt.access_token.grants import VideoGrant as TwilioVideoGrant

EMAIL = "vendor-sdk@example.com"
PASSWORD = "vendor sdk check password"
EXTRA_CUSTOMER_ID = ("cookie", "c-4711")

LIVEKIT_KEY = "APIvendorsdk"
LIVEKIT_SECRET = "livekit-secret-vendor-sdk-check-0123456789abcdef"
LIVEKIT_URL = "wss://livekit.example.com"
LIVEKIT_TTL = 900
STREAM_CHAT_KEY = "stream-chat-key"
STREAM_CHAT_SECRET = "stream-chat-secret-vendor-sdk-check-0123456789"
STREAM_CHAT_TTL = 1800
TWILIO_ACCOUNT = "AC" + "0123456789abcdef" * 2
TWILIO_KEY_SID = "SK" + "fedcba9876543210" * 2
TWILIO_SECRET = "twilio-secret-vendor-sdk-check-0123456789abcdef"
TWILIO_TTL = 3600
ENGAGEMENT_KEY_ID = "engagement-private-key-id"
ENGAGEMENT_SECRET = "engagement-secret-vendor-sdk-check-0123456789"
STREAM_SECRET = "stream-secret-vendor-sdk-check-stream-secret-vendor-sdk-check-0123456789"

failures = 0


def report(ok, text):
    global failures
    print(("ok   - " if ok else "FAIL - ") + text, file=sys.stdout if ok else sys.stderr, flush=True)
    if not ok:
        failures += 1


def check(text, function):
    """Runs one check: `function` returns a detail string for the ok line, or raises (AssertionError or a library
    error such as jwt.InvalidTokenError) for a FAIL line that says why."""
    try:
        detail = function()
    except Exception as error:  # noqa: BLE001: every failure becomes a FAIL line
        report(False, f"{text}: {type(error).__name__}: {error}")
    else:
        report(True, text + (f" ({detail})" if detail else ""))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def segments(token):
    """The header and payload of a compact JWS, decoded without verification, and their exact JSON texts."""
    texts = []
    for part in token.split(".")[:2]:
        texts.append(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)).decode())
    return json.loads(texts[0]), json.loads(texts[1]), texts[0], texts[1]


def config(work, port):
    with open(os.path.join(work, "twilio.secret"), "w") as file:
        file.write(TWILIO_SECRET + "\n")  # the one trailing newline is dropped (VendorConfiguration.resolvingFiles)
    return {
        "server": {"host": "127.0.0.1", "port": port},
        "database": {"path": os.path.join(work, "tokenvend.sqlite")},
        "password": {"timeCost": 1, "memoryCost": 8192},
        "rateLimit": {"requestsPerAddressPerMinute": 1000},
        "stream": {"keys": [{"kid": "sdk-check", "secret": STREAM_SECRET}]},
        "vendors": {
            "video": {"preset": "livekit", "apiKey": LIVEKIT_KEY, "apiSecret": LIVEKIT_SECRET,
                      "serverURL": LIVEKIT_URL, "ttlSeconds": LIVEKIT_TTL, "roomJoin": True, "canPublish": False,
                      "canSubscribe": True, "roomsByRole": {"user": "^lobby-[a-z0-9]+$", "admin": "^.*$"}},
            "chat": {"preset": "stream-chat", "apiKey": STREAM_CHAT_KEY, "apiSecret": STREAM_CHAT_SECRET,
                     "ttlSeconds": STREAM_CHAT_TTL},
            "twilio": {"preset": "twilio", "accountSid": TWILIO_ACCOUNT, "apiKeySid": TWILIO_KEY_SID,
                       "apiKeySecretFile": os.path.join(work, "twilio.secret"), "ttlSeconds": TWILIO_TTL},
            "engagement": {"preset": "bloomreach-customer", "keyId": ENGAGEMENT_KEY_ID, "secret": ENGAGEMENT_SECRET},
            "keyless": {"preset": "stream-chat", "apiKey": "no-secret-yet"},
        },
    }


class Server:
    """`tokenvend serve` with the configuration above; `stop` ends it whatever `start` got to."""

    def __init__(self, work):
        self.work = work
        self.process = None
        self.log = None

    def start(self, binary):
        port = free_port()
        self.base = f"http://127.0.0.1:{port}"
        self.config_path = os.path.join(self.work, "tokenvend.json")
        with open(self.config_path, "w") as file:
            json.dump(config(self.work, port), file)
        # Only the file's settings: an inherited TOKENVEND_* (such as TOKENVEND_BIN) is not a server key.
        self.environment = {name: value for name, value in os.environ.items() if not name.startswith("TOKENVEND_")}
        self.log = open(os.path.join(self.work, "tokenvend.log"), "w")
        self.process = subprocess.Popen([binary, "serve", "--config", self.config_path], env=self.environment,
                                        cwd=self.work, stdout=self.log, stderr=self.log)
        for _ in range(400):
            try:
                urllib.request.urlopen(f"{self.base}/healthz", timeout=2).read()
                return
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(f"tokenvend exited with {self.process.returncode} (its log follows)")
                time.sleep(0.05)
        raise RuntimeError("tokenvend did not answer /healthz (its log follows)")

    def call(self, method, path, body=None, bearer=None, headers=None):
        """(status, headers, parsed JSON body or None)."""
        request = urllib.request.Request(self.base + path, method=method,
                                         data=None if body is None else json.dumps(body).encode())
        if body is not None:
            request.add_header("Content-Type", "application/json")
        if bearer:
            request.add_header("Authorization", "Bearer " + bearer)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=15) as response:
                status, answer_headers, raw = response.status, response.headers, response.read()
        except urllib.error.HTTPError as error:
            status, answer_headers, raw = error.code, error.headers, error.read()
        return status, answer_headers, json.loads(raw) if raw else None

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.log is not None:
            self.log.close()

    def tail(self):
        with open(os.path.join(self.work, "tokenvend.log")) as file:
            return file.read()[-4000:]


def sign_in(server, binary):
    """Registers the user, adds a second customer id, logs in: (user id, access token)."""
    status, _, body = server.call("POST", "/auth/register", {"email": EMAIL, "password": PASSWORD})
    assert status == 201, f"register answered {status}: {body}"
    user_id = body["user"]["id"]
    subprocess.run([binary, "users", "set-customer-id", "--config", server.config_path, "--email", EMAIL,
                    "--key", EXTRA_CUSTOMER_ID[0], "--value", EXTRA_CUSTOMER_ID[1]], env=server.environment,
                   cwd=server.work, check=True, stdout=subprocess.DEVNULL)
    status, _, body = server.call("POST", "/auth/login", {"email": EMAIL, "password": PASSWORD},
                                  headers={"X-Auth-Strategy": "bearer"})
    assert status == 200, f"login answered {status}: {body}"
    return user_id, body["accessToken"]


def expect_error(answer, status, code, naming=None):
    got_status, headers, body = answer
    assert got_status == status and isinstance(body, dict) and body.get("error") == code, \
        f"wanted {status} {code}, got {got_status} {body}"
    if naming is not None:
        assert naming in body.get("message", ""), f"the message does not name {naming}: {body}"
    return f"{got_status} {code}: {body.get('message')}"


def vend_token(server, bearer, vendor, body):
    """POST /vend/{vendor} for the 200 shape: the answer, checked for its members and Cache-Control."""
    status, headers, answer = server.call("POST", f"/vend/{vendor}", body, bearer=bearer)
    assert status == 200, f"POST /vend/{vendor} answered {status}: {answer}"
    assert set(answer) == {"token", "expiresIn", "expiresAt"}, answer
    assert "no-store" in (headers.get("Cache-Control") or ""), f"Cache-Control {headers.get('Cache-Control')!r}"
    _, payload, _, _ = segments(answer["token"])
    assert answer["expiresAt"] == payload["exp"], (answer, payload)
    return answer


def member_paths(claims):
    """The claims' member names, with those of the `video` grant as `video.<name>`."""
    return {name for name in claims if name != "video"} | {f"video.{name}" for name in claims.get("video", {})}


def livekit_checks(server, bearer, user_id):
    room, name = "lobby-42", "Ada Lovelace"
    status, headers, body = server.call("POST", "/vend/video", {"room_name": room, "participant_name": name},
                                        bearer=bearer)
    if status != 201 or not isinstance(body, dict) or set(body) != {"server_url", "participant_token"}:
        report(False, f"LiveKit: POST /vend/video answers 201 {{server_url, participant_token}} (got {status} {body})")
        return
    cache_control = headers.get("Cache-Control") or ""
    report(body["server_url"] == LIVEKIT_URL and "no-store" in cache_control,
           f"LiveKit: POST /vend/video answers 201 {{server_url, participant_token}}, server_url {body['server_url']}, "
           f"Cache-Control {cache_control!r}")
    token = body["participant_token"]

    def verified():
        claims = livekit.TokenVerifier(LIVEKIT_KEY, LIVEKIT_SECRET).verify(token)
        video = claims.video
        assert claims.identity == user_id, f"identity {claims.identity!r}, wanted {user_id!r}"
        assert claims.name == name, f"name {claims.name!r}, wanted {name!r}"
        assert video.room == room, f"room {video.room!r}, wanted {room!r}"
        # As configured: roomJoin true, canPublish false, canSubscribe true.
        assert (video.room_join, video.can_publish, video.can_subscribe) == (True, False, True), \
            f"roomJoin/canPublish/canSubscribe {video.room_join}/{video.can_publish}/{video.can_subscribe}, " \
            "configured True/False/True"
        return f"identity {claims.identity}, room {video.room}, roomJoin/canPublish/canSubscribe " \
               f"{video.room_join}/{video.can_publish}/{video.can_subscribe}"
    check("LiveKit: livekit.api.TokenVerifier accepts the participant token, identity = our user id, "
          "the requested room and name, the configured grants", verified)

    def refused(key, secret, error_type):
        def run():
            try:
                livekit.TokenVerifier(key, secret).verify(token)
            except error_type as error:
                return f"{type(error).__name__}"
            raise AssertionError("TokenVerifier accepted it")
        return run
    check("LiveKit: TokenVerifier refuses the token with another API secret",
          refused(LIVEKIT_KEY, LIVEKIT_SECRET[::-1], jwt.InvalidSignatureError))
    check("LiveKit: TokenVerifier refuses the token for another API key (iss)",
          refused("APIsomeoneelse", LIVEKIT_SECRET, jwt.InvalidIssuerError))

    check("LiveKit: participant_identity in the body → 400 invalid_request naming it",
          lambda: expect_error(server.call("POST", "/vend/video", {"room_name": room,
                                                                   "participant_identity": "someone-else"},
                                           bearer=bearer), 400, "invalid_request", naming="participant_identity"))
    check("LiveKit: a room that roomsByRole refuses for the role user → 403 insufficient_scope",
          lambda: expect_error(server.call("POST", "/vend/video", {"room_name": "boardroom"}, bearer=bearer),
                               403, "insufficient_scope"))
    check("LiveKit: a room_name outside ^[A-Za-z0-9_-]{1,64}$ → 400 invalid_request naming it",
          lambda: expect_error(server.call("POST", "/vend/video", {"room_name": "lobby 42"}, bearer=bearer),
                               400, "invalid_request", naming="room_name"))
    check("LiveKit: no room_name → 400 invalid_request naming it",
          lambda: expect_error(server.call("POST", "/vend/video", {}, bearer=bearer), 400, "invalid_request",
                               naming="room_name"))

    def same_as_livekit_api():
        ours_header, ours, _, _ = segments(token)
        reference = (livekit.AccessToken(LIVEKIT_KEY, LIVEKIT_SECRET).with_identity(user_id).with_name(name)
                     .with_grants(livekit.VideoGrants(room_join=True, room=room, can_publish=False,
                                                      can_subscribe=True))
                     .with_ttl(datetime.timedelta(seconds=ours["exp"] - ours["nbf"])).to_jwt())
        theirs_header, theirs, _, _ = segments(reference)
        assert ours_header == theirs_header == {"alg": "HS256", "typ": "JWT"}, (ours_header, theirs_header)
        def shared(claims):
            video = claims["video"]
            return (claims["iss"], claims["sub"], claims["name"], video["room"], video["roomJoin"],
                    video["canPublish"], video["canSubscribe"], claims["exp"] - claims["nbf"])
        assert shared(ours) == shared(theirs), (shared(ours), shared(theirs))
        assert ours["exp"] - ours["nbf"] == LIVEKIT_TTL, ours
        # Differences that are not errors. livekit-api writes `video.canPublishData` (its VideoGrants default,
        # true); LiveKit's server reads an absent canPublishData as true too (the Go protocol's *bool, nil = true),
        # so leaving it out grants the same. Its `nbf`/`exp` come from its own clock, so only the window is
        # compared. Any other difference fails here, so that a new livekit-api member is looked at, not ignored.
        known = {"video.canPublishData"}
        only_theirs, only_ours = member_paths(theirs) - member_paths(ours), member_paths(ours) - member_paths(theirs)
        assert only_theirs == known and not only_ours, f"only livekit-api: {only_theirs}, only ours: {only_ours}"
        return f"same header, iss/sub/name/video grants/exp−nbf {LIVEKIT_TTL}; livekit-api also writes " \
               f"{', '.join(sorted(only_theirs))}, which LiveKit reads as true when absent"
    check("LiveKit: our claims equal those of livekit.api.AccessToken(...).with_identity/with_name/with_grants/"
          "with_ttl for the same values", same_as_livekit_api)


def stream_chat_checks(server, bearer, user_id):
    try:
        answer = vend_token(server, bearer, "chat", {})
    except AssertionError as error:
        report(False, f"Stream Chat: POST /vend/chat answers 200 {{token, expiresIn, expiresAt}}: {error}")
        return
    token = answer["token"]
    report(answer["expiresIn"] == STREAM_CHAT_TTL,
           f"Stream Chat: POST /vend/chat answers 200 {{token, expiresIn {answer['expiresIn']}, expiresAt}}, "
           "Cache-Control no-store")

    def same_as_create_token():
        ours_header, ours, ours_header_text, ours_text = segments(token)
        reference = StreamChat(STREAM_CHAT_KEY, STREAM_CHAT_SECRET).create_token(user_id, exp=ours["exp"],
                                                                                 iat=ours["iat"])
        theirs_header, theirs, theirs_header_text, theirs_text = segments(reference)
        assert ours_header == theirs_header, (ours_header, theirs_header)
        assert ours == theirs, (ours, theirs)
        assert ours["exp"] - ours["iat"] == STREAM_CHAT_TTL, ours
        if token == reference:
            return "byte for byte the same token"
        # Not byte for byte: PyJWT keeps the payload's insertion order (user_id, exp, iat); ours is sorted
        # (exp, iat, user_id), as the design renders every template. Stream verifies the signature over the
        # bytes it got, so the order does not matter to it.
        return f"same claims and header, not byte for byte: ours {ours_header_text} {ours_text}, " \
               f"stream-chat's {theirs_header_text} {theirs_text}"
    check("Stream Chat: header and claims equal stream_chat.StreamChat.create_token(user_id, exp, iat)'s",
          same_as_create_token)

    def verified():
        claims = jwt.decode(token, STREAM_CHAT_SECRET, algorithms=["HS256"],
                            options={"require": ["exp", "iat", "user_id"]})
        assert claims["user_id"] == user_id, claims
        try:
            jwt.decode(token, STREAM_CHAT_SECRET[::-1], algorithms=["HS256"])
        except jwt.InvalidSignatureError:
            return f"user_id {claims['user_id']}; another secret is refused"
        raise AssertionError("PyJWT accepted it with another secret")
    check("Stream Chat: PyJWT verifies our token with the API secret", verified)
    check("Stream Chat: user_id in the body → 400 invalid_request (the identity comes from the session)",
          lambda: expect_error(server.call("POST", "/vend/chat", {"user_id": "someone-else"}, bearer=bearer),
                               400, "invalid_request", naming="user_id"))


def twilio_checks(server, bearer, user_id):
    room = "standup"
    try:
        answer = vend_token(server, bearer, "twilio", {"room": room})
        bare = vend_token(server, bearer, "twilio", {})
    except AssertionError as error:
        report(False, f"Twilio: POST /vend/twilio answers 200 {{token, expiresIn, expiresAt}}: {error}")
        return
    report(answer["expiresIn"] == TWILIO_TTL,
           f"Twilio: POST /vend/twilio answers 200 {{token, expiresIn {answer['expiresIn']}, expiresAt}}")

    def compare(token, grants):
        ours_header, ours, _, _ = segments(token)
        match = re.fullmatch(r"(SK[0-9a-f]{32})-([0-9]+)", ours.get("jti", ""))
        assert match and match.group(1) == TWILIO_KEY_SID, f"jti {ours.get('jti')!r} is not <API key sid>-<now>"
        now = int(match.group(2))
        assert ours["exp"] - now == TWILIO_TTL, (ours, now)
        reference = TwilioAccessToken(TWILIO_ACCOUNT, TWILIO_KEY_SID, TWILIO_SECRET, identity=user_id,
                                      grants=grants, ttl=ours["exp"] - now).to_jwt()
        theirs_header, theirs, _, _ = segments(reference)
        theirs_match = re.fullmatch(r"(SK[0-9a-f]{32})-([0-9]+)", theirs["jti"])
        assert theirs_match and theirs_match.group(1) == TWILIO_KEY_SID, theirs["jti"]
        assert ours_header == theirs_header == {"alg": "HS256", "cty": "twilio-fpa;v=1", "typ": "JWT"}, \
            (ours_header, theirs_header)
        def shared(claims, start):
            return claims["iss"], claims["sub"], claims["grants"], claims["exp"] - start
        assert shared(ours, now) == shared(theirs, int(theirs_match.group(2))), (ours, theirs)
        # Differences that are not errors: the twilio package also writes `nbf` (= now; its Jwt base class adds
        # it unless nbf=None, and Twilio's other server SDKs leave it out unless asked). Ours has none, as the
        # design's twilio preset prescribes; `jti` and `exp` differ only by the clock of each side. Anything else
        # fails here.
        only_theirs, only_ours = set(theirs) - set(ours), set(ours) - set(theirs)
        assert only_theirs == {"nbf"} and not only_ours, f"only twilio: {only_theirs}, only ours: {only_ours}"
        return ours

    def with_room():
        ours = compare(answer["token"], [TwilioVideoGrant(room=room)])
        return f"header alg/cty/typ, jti {ours['jti']}, iss, sub, grants {json.dumps(ours['grants'])}, " \
               f"exp − now {TWILIO_TTL}; the twilio package also writes nbf"
    check("Twilio: header and claims equal those of twilio.jwt.access_token.AccessToken with VideoGrant(room)",
          with_room)

    def without_room():
        ours = compare(bare["token"], [])
        assert ours["grants"] == {"identity": user_id}, ours["grants"]
        return f"grants {json.dumps(ours['grants'])}"
    check("Twilio: without room there is no video grant, as AccessToken without grants", without_room)

    def verified():
        decoded = TwilioJwt.from_jwt(answer["token"], key=TWILIO_SECRET)
        claims = jwt.decode(answer["token"], TWILIO_SECRET, algorithms=["HS256"], options={"require": ["exp"]},
                            issuer=TWILIO_KEY_SID, subject=TWILIO_ACCOUNT)
        assert decoded.payload == claims, (decoded.payload, claims)
        try:
            TwilioJwt.from_jwt(answer["token"], key=TWILIO_SECRET[::-1])
        except Exception:  # noqa: BLE001: twilio raises JwtDecodeError
            return "another secret is refused"
        raise AssertionError("twilio's Jwt.from_jwt accepted it with another secret")
    check("Twilio: the twilio package's Jwt.from_jwt and PyJWT verify our token with the API key secret",
          verified)
    check("Twilio: a room outside ^[A-Za-z0-9_-]{1,128}$ → 400 invalid_request naming it",
          lambda: expect_error(server.call("POST", "/vend/twilio", {"room": "stand up"}, bearer=bearer),
                               400, "invalid_request", naming="room"))


def engagement_checks(server, bearer, user_id):
    ids = {"registered": user_id, EXTRA_CUSTOMER_ID[0]: EXTRA_CUSTOMER_ID[1]}

    def decoded(token):
        # PyJWT checks that `sub` is a string (RFC 7519 §4.1.2: StringOrURI) unless told not to; Bloomreach's
        # customer token puts the customer ids object there, so that one check is switched off. The signature,
        # `exp` (required) and everything else are verified.
        return jwt.decode(token, ENGAGEMENT_SECRET, algorithms=["HS256"],
                          options={"require": ["exp", "sub"], "verify_sub": False})

    def all_ids():
        answer = vend_token(server, bearer, "engagement", {})
        header, payload, _, _ = segments(answer["token"])
        assert header == {"alg": "HS256", "typ": "JWT", "kid": ENGAGEMENT_KEY_ID}, header
        claims = decoded(answer["token"])
        assert set(claims) == {"sub", "exp"} and claims["sub"] == ids, claims
        assert answer["expiresAt"] - int(time.time()) in range(3600 - 60, 3600 + 1), answer
        return f"header {json.dumps(header)}, sub {json.dumps(claims['sub'])}, expiresIn {answer['expiresIn']}"
    check("Bloomreach customer token: POST /vend/engagement → header {alg HS256, typ JWT, kid = key id}, payload "
          "{sub: the user's customer ids, exp}; PyJWT verifies it", all_ids)

    def subset():
        answer = vend_token(server, bearer, "engagement", {"customerIds": {"registered": user_id}})
        claims = decoded(answer["token"])
        assert claims["sub"] == {"registered": user_id}, claims
        return f"sub {json.dumps(claims['sub'])}"
    check("Bloomreach customer token: customerIds naming some of the user's ids → only those", subset)
    check("Bloomreach customer token: customer ids that are not the user's → 403 insufficient_scope",
          lambda: expect_error(server.call("POST", "/vend/engagement",
                                           {"customerIds": {"registered": "someone-else"}}, bearer=bearer),
                               403, "insufficient_scope"))
    check("Bloomreach customer token: one foreign id among the user's → 403 insufficient_scope",
          lambda: expect_error(server.call("POST", "/vend/engagement",
                                           {"customerIds": {"registered": user_id, "cookie": "c-other"}},
                                           bearer=bearer), 403, "insufficient_scope"))


def endpoint_checks(server, bearer):
    check("POST /vend/{unknown vendor} → 404 not_found",
          lambda: expect_error(server.call("POST", "/vend/nosuchvendor", {}, bearer=bearer), 404, "not_found"))

    def keyless():
        detail = expect_error(server.call("POST", "/vend/keyless", {}, bearer=bearer), 503, "unavailable")
        _, headers, _ = server.call("POST", "/vend/keyless", {}, bearer=bearer)
        assert headers.get("Retry-After"), "no Retry-After"
        return f"{detail}, Retry-After {headers.get('Retry-After')}"
    check("POST /vend/{vendor configured without keys} → 503 unavailable with Retry-After", keyless)
    check("POST /vend/chat without an access token → 401 invalid_token",
          lambda: expect_error(server.call("POST", "/vend/chat", {}), 401, "invalid_token"))


def stream_token_checks(server, bearer, user_id):
    def verified():
        status, _, answer = server.call("POST", "/stream-token", bearer=bearer)
        assert status == 200, f"POST /stream-token answered {status}: {answer}"
        assert {"token", "expiresIn", "expiresAt"} <= set(answer), answer
        claims = jwt.decode(answer["token"], STREAM_SECRET, algorithms=["HS512"], options={"require": ["exp", "iat"]})
        assert jwt.get_unverified_header(answer["token"]) == {"alg": "HS512", "typ": "JWT", "kid": "sdk-check"}
        assert claims["ids"] == {"registered": user_id, EXTRA_CUSTOMER_ID[0]: EXTRA_CUSTOMER_ID[1]}, claims
        assert answer["expiresAt"] == claims["exp"] and claims["exp"] - claims["iat"] == answer["expiresIn"], \
            (answer, claims)
        return f"expiresIn {answer['expiresIn']}, expiresAt {answer['expiresAt']} = exp"
    check("POST /stream-token still works: PyJWT verifies its HS512 token and expiresAt is its exp", verified)


def main():
    if len(sys.argv) != 2 or not os.access(sys.argv[1], os.X_OK):
        print(__doc__.split("\n\n")[-1], file=sys.stderr)
        return 2
    binary = os.path.abspath(sys.argv[1])
    # make's SIGTERM (or ^C) still stops tokenvend through the finally below.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    with tempfile.TemporaryDirectory(prefix="vendor-sdk-check-") as work:
        server = Server(work)
        try:
            server.start(binary)
            user_id, bearer = sign_in(server, binary)
            for part in (livekit_checks, stream_chat_checks, twilio_checks, engagement_checks):
                part(server, bearer, user_id)
            endpoint_checks(server, bearer)
            stream_token_checks(server, bearer, user_id)
        except Exception as error:  # noqa: BLE001: set-up failed, say why
            report(False, f"set-up: {type(error).__name__}: {error}")
        finally:
            server.stop()
            if failures and server.log is not None:
                print("--- tokenvend.log (tail) ---\n" + server.tail(), file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
