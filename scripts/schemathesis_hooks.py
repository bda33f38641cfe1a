"""Schemathesis hooks for the destructive phase of scripts/check-schemathesis.sh.

`POST /auth/logout` (any scope) and `DELETE /auth/sessions/{id}` end sessions, so a single shared access token
would be revoked by the first of them and every later case would only test the 401 path. In this phase each
generated case gets the access token of a session logged in just for it (refresh_interval=None: no caching), of
a second user whose sessions nothing else relies on. `scope=global` then ends only that user's sessions.

Reads TOKENVEND_ST_BASE (server URL), TOKENVEND_ST_EMAIL and TOKENVEND_ST_PASSWORD from the environment.
"""
import json
import os
import urllib.request

import schemathesis

BASE = os.environ["TOKENVEND_ST_BASE"]
CREDENTIALS = json.dumps({"email": os.environ["TOKENVEND_ST_EMAIL"],
                          "password": os.environ["TOKENVEND_ST_PASSWORD"]}).encode()


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    """A new session per generated case, sent as `Authorization: Bearer`."""

    def get(self, case, context):
        request = urllib.request.Request(BASE + "/auth/login", data=CREDENTIALS, method="POST",
                                         headers={"Content-Type": "application/json", "X-Auth-Strategy": "bearer"})
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())["accessToken"]

    def set(self, case, data, context):
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {data}"
