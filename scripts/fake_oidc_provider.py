"""A fake OpenID Connect provider on loopback, built with Authlib (code nobody here wrote), for the browser tests.

It serves discovery (`/.well-known/openid-configuration`), a JWK Set (`/jwks`, one RSA 2048 key made at start with
joserfc), `/authorize` (Authlib's authorization code grant with OpenID Connect and PKCE S256 required: an HTML login
form with a username field, a "Sign in" and a "Deny" button; the username becomes `sub`, the email
`<username>@example.com` with `email_verified` true), `/token` (client_secret_basic, or client_secret_post, or both,
as `--token-auth` says) and `/userinfo`. Everything lives in memory. One client, its only redirect URI the one given.

`GET /_fake/requests` answers the requests served so far as JSON `[{"method", "path"}]`, so a test can tell whether
the provider was reached at all; `GET /_fake/issued` answers `{"codes", "accessTokens", "idTokens"}`, every credential
it handed out, so a test can look for them where they must never be; `POST /_fake/misbehave` with form field
`idToken` = `nonce`, `issuer`, `audience`, `expired` or `signature` (a key it does not publish, same kid) spoils
that part of every ID token from then on, and `idToken=` (empty) ends it. None of these is itself listed.

usage: python3 scripts/fake_oidc_provider.py --port 0 --client-id ID --client-secret SECRET --redirect-uri URI
       [--issuer URL] [--token-auth basic|post|both] [--deny]
With --port 0 the first line on stdout is the port chosen. --issuer defaults to http://127.0.0.1:<port>.
--deny answers every login form submission with error=access_denied, as the Deny button does.
"""
import argparse
import html
import secrets
import sys
import threading
import time

from authlib.integrations.flask_oauth2 import AuthorizationServer, ResourceProtector
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import AuthorizationCodeMixin, ClientMixin, InvalidRequestError, TokenMixin, grants
from authlib.oauth2.rfc6750 import BearerTokenValidator
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oidc.core import UserInfo, UserInfoEndpoint
from authlib.oidc.core.grants import OpenIDCode
from flask import Flask, Response, jsonify, request
from joserfc.jwk import RSAKey
from werkzeug.serving import make_server

SCOPES = ["openid", "email", "profile"]
# What `POST /_fake/misbehave idToken=…` spoils in the ID tokens issued from then on ("" for nothing).
ID_TOKEN_FAULTS = {"", "nonce", "issuer", "audience", "expired", "signature"}
CODE_LIFETIME = 600
TOKEN_LIFETIME = 3600


class User:
    def __init__(self, username):
        self.username = username

    def get_user_id(self):
        return self.username

    def info(self):
        return UserInfo(sub=self.username, name=self.username, email=f"{self.username}@example.com",
                        email_verified=True)


class Client(ClientMixin):
    def __init__(self, client_id, secret, redirect_uri, methods):
        self.client_id, self.client_secret, self.redirect_uri, self.methods = client_id, secret, redirect_uri, methods
        self.client_metadata = {}

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.redirect_uri

    def get_allowed_scope(self, scope):
        return " ".join(item for item in (scope or "").split() if item in SCOPES)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri == self.redirect_uri

    def check_client_secret(self, client_secret):
        return secrets.compare_digest(client_secret.encode(), self.client_secret.encode())

    def check_endpoint_auth_method(self, method, endpoint):
        return endpoint != "token" or method in self.methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type == "authorization_code"


class StrictCodeChallenge(CodeChallenge):
    """PKCE required of this confidential client too, S256 only: Authlib's `required` covers public clients."""

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        if not data.get("code_challenge") or data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("PKCE is required: code_challenge with code_challenge_method=S256",
                                      redirect_uri=redirect_uri, state=grant.request.payload.state)
        super().validate_code_challenge(grant, redirect_uri)


class AuthorizationCode(AuthorizationCodeMixin):
    def __init__(self, code, client_id, redirect_uri, scope, user, nonce, challenge, method):
        self.code, self.client_id, self.redirect_uri, self.scope, self.user = code, client_id, redirect_uri, scope, user
        self.nonce, self.code_challenge, self.code_challenge_method = nonce, challenge, method
        self.auth_time = int(time.time())
        self.expires_at = self.auth_time + CODE_LIFETIME

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


class Token(TokenMixin):
    def __init__(self, token, client, user):
        self.access_token, self.scope, self.client, self.user = token["access_token"], token["scope"], client, user
        self.expires_at = int(time.time()) + int(token.get("expires_in", TOKEN_LIFETIME))

    def check_client(self, client):
        return client.client_id == self.client.client_id

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return self.expires_at - int(time.time())

    def is_expired(self):
        return time.time() >= self.expires_at

    def is_revoked(self):
        return False

    def get_user(self):
        return self.user

    def get_client(self):
        return self.client


def build(arguments, issuer):
    """The Flask app of the provider, its state in memory."""
    lock = threading.Lock()
    codes, tokens, served = {}, {}, []
    issued = {"codes": [], "accessTokens": [], "idTokens": []}
    methods = {"basic": ["client_secret_basic"], "post": ["client_secret_post"],
               "both": ["client_secret_basic", "client_secret_post"]}[arguments.token_auth]
    client = Client(arguments.client_id, arguments.client_secret, arguments.redirect_uri, methods)
    key = RSAKey.generate_key(2048, parameters={"kid": "fake-" + secrets.token_hex(4), "use": "sig", "alg": "RS256"},
                              private=True)
    stranger = RSAKey.generate_key(2048, parameters={"kid": key.kid}, private=True)  # never published
    misbehaviour = {"idToken": ""}

    class CodeGrant(grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = methods

        def save_authorization_code(self, code, req):
            data = req.payload.data
            item = AuthorizationCode(code, req.client.client_id, req.payload.redirect_uri, req.scope, req.user,
                                     data.get("nonce"), data.get("code_challenge"), data.get("code_challenge_method"))
            with lock:
                codes[code] = item
                issued["codes"].append(code)

        def query_authorization_code(self, code, client):
            with lock:
                item = codes.get(code)
            if item and item.client_id == client.client_id and time.time() < item.expires_at:
                return item
            return None

        def delete_authorization_code(self, authorization_code):
            with lock:
                codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code):
            return authorization_code.user

    class IDToken(OpenIDCode):
        def exists_nonce(self, nonce, req):
            with lock:
                return any(item.nonce == nonce for item in codes.values())

        def resolve_client_private_key(self, client):
            return stranger if misbehaviour["idToken"] == "signature" else key

        def get_authorization_code_claims(self, authorization_code):
            claims = super().get_authorization_code_claims(authorization_code)
            if misbehaviour["idToken"] == "nonce":
                claims["nonce"] = "not-" + claims.get("nonce", "")
            return claims

        def get_client_algorithm(self, client):
            return "RS256"

        def get_encode_header(self, client):
            return {"alg": "RS256", "kid": key.kid, "typ": "JWT"}

        def get_client_claims(self, client):
            now = int(time.time())
            claims = {"iss": issuer, "aud": [client.get_client_id()], "iat": now, "exp": now + TOKEN_LIFETIME}
            mode = misbehaviour["idToken"]
            if mode == "issuer":
                claims["iss"] = issuer + "/elsewhere"
            elif mode == "audience":
                claims["aud"] = ["another-client"]
            elif mode == "expired":
                claims.update(iat=now - 2 * TOKEN_LIFETIME, exp=now - TOKEN_LIFETIME)
            return claims

        def generate_user_info(self, user, scope):
            return user.info()

        def process_token(self, grant, response):
            token = super().process_token(grant, response)
            if "id_token" in token:
                with lock:
                    issued["idTokens"].append(token["id_token"])
            return token

    class BearerValidator(BearerTokenValidator):
        def authenticate_token(self, token_string):
            with lock:
                return tokens.get(token_string)

    class UserInfoAnswer(UserInfoEndpoint):
        def get_issuer(self):
            return issuer

        def generate_user_info(self, user, scope):
            return user.info()

    def save_token(token, req):
        with lock:
            tokens[token["access_token"]] = Token(token, req.client, req.user)
            issued["accessTokens"].append(token["access_token"])

    app = Flask("fake_oidc_provider")
    app.config["OAUTH2_TOKEN_EXPIRES_IN"] = {"authorization_code": TOKEN_LIFETIME}
    server = AuthorizationServer(app, query_client=lambda cid: client if cid == client.client_id else None,
                                 save_token=save_token)
    server.register_grant(CodeGrant, [IDToken(require_nonce=True), StrictCodeChallenge(required=True)])
    protector = ResourceProtector()
    protector.register_token_validator(BearerValidator())
    server.register_endpoint(UserInfoAnswer(resource_protector=protector))

    @app.before_request
    def record():
        if not request.path.startswith("/_fake/"):
            with lock:
                served.append({"method": request.method, "path": request.path})

    @app.get("/_fake/requests")
    def requests_served():
        with lock:
            return jsonify(list(served))

    @app.post("/_fake/misbehave")
    def misbehave():
        mode = request.form.get("idToken", "")
        if mode not in ID_TOKEN_FAULTS:
            return jsonify({"error": f"idToken must be one of {sorted(ID_TOKEN_FAULTS)}"}), 400
        with lock:
            misbehaviour["idToken"] = mode
        return jsonify(misbehaviour)

    @app.get("/_fake/issued")
    def credentials_issued():
        with lock:
            return jsonify({name: list(values) for name, values in issued.items()})

    @app.get("/.well-known/openid-configuration")
    def discovery():
        return jsonify({
            "issuer": issuer, "authorization_endpoint": f"{issuer}/authorize", "token_endpoint": f"{issuer}/token",
            "userinfo_endpoint": f"{issuer}/userinfo", "jwks_uri": f"{issuer}/jwks",
            "response_types_supported": ["code"], "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"], "scopes_supported": SCOPES,
            "token_endpoint_auth_methods_supported": methods, "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code"], "claims_supported": ["sub", "email", "email_verified"],
        })

    @app.get("/jwks")
    def jwks():
        response = jsonify({"keys": [key.as_dict(private=False)]})
        response.headers["Cache-Control"] = "public, max-age=300"
        return response

    @app.route("/authorize", methods=["GET", "POST"])
    def authorize():
        try:
            grant = server.get_consent_grant(end_user=None)
        except OAuth2Error as error:
            return server.handle_error_response(None, error)
        if request.method == "GET":
            query = html.escape(request.query_string.decode(), quote=True)
            page = (
                "<!doctype html><html><head><title>Fake provider sign-in</title></head><body>"
                f"<h1>Sign in to {html.escape(client.client_id)}</h1>"
                f'<form id="login" method="post" action="/authorize?{query}">'
                '<label>Username <input id="username" name="username" autocomplete="off" required></label>'
                '<button id="submit" type="submit" name="action" value="allow">Sign in</button>'
                '<button id="deny" type="submit" name="action" value="deny" formnovalidate>Deny</button>'
                "</form></body></html>")
            return Response(page, content_type="text/html; charset=utf-8", headers={"Cache-Control": "no-store"})
        username = request.form.get("username", "").strip()
        deny = arguments.deny or request.form.get("action") == "deny" or not username
        return server.create_authorization_response(grant=grant, grant_user=None if deny else User(username))

    @app.post("/token")
    def token():
        return server.create_token_response()

    @app.route("/userinfo", methods=["GET", "POST"])
    def userinfo():
        return server.create_endpoint_response("userinfo")

    return app


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--client-id", required=True)
    parser.add_argument("--client-secret", required=True)
    parser.add_argument("--redirect-uri", required=True, help="the client's only redirect URI (tokenvend's callback)")
    parser.add_argument("--issuer", help="default http://127.0.0.1:<port>")
    parser.add_argument("--token-auth", choices=["basic", "post", "both"], default="basic",
                        help="how the client authenticates at /token: client_secret_basic (default), _post, or both")
    parser.add_argument("--deny", action="store_true", help="answer every sign-in with error=access_denied")
    arguments = parser.parse_args()
    holder = {}
    # The issuer names the port, which is known once the socket is bound: the app reads it through `holder`.
    server = make_server("127.0.0.1", arguments.port, lambda env, start: holder["app"](env, start), threaded=True)
    port = server.server_port
    holder["app"] = build(arguments, arguments.issuer or f"http://127.0.0.1:{port}")
    print(port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
