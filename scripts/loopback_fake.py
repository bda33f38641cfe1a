"""The plumbing the loopback fakes that the Swift tests start share (fake_app_attest.py, fake_play_integrity.py):
a JSON-in, JSON-out HTTP handler routed by path, and a server on 127.0.0.1 that prints `PORT <n>` once listening
and exits when the process that started it ends."""

import argparse
import json
import os
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

MAX_BODY = 65536


def json_handler(get_routes, post_routes):
    """A handler class: `GET` calls `get_routes[path]()`, `POST` calls `post_routes[path](body)` with the JSON body
    (at most 64 KiB, else 413); each returns the JSON answer (200). A missing member or a bad value (KeyError,
    ValueError, TypeError) answers 400, an unknown path 404."""

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def answer(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            route = get_routes.get(self.path)
            if route is None:
                self.answer(404, {"error": "not_found"})
            else:
                self.answer(200, route())

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if length > MAX_BODY:
                self.answer(413, {"error": "too large"})
                return
            route = post_routes.get(self.path)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
                if route is None:
                    self.answer(404, {"error": "not_found"})
                else:
                    self.answer(200, route(body))
            except (KeyError, ValueError, TypeError) as error:
                self.answer(400, {"error": str(error)})

    return Handler


def argument_parser(description):
    """`--host` (127.0.0.1) and `--port` (0: any), for the fake to add its own options to."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    return parser


def exit_with_parent(parent):
    """Ends the process once the parent that started it is gone (it is then re-parented)."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def serve(handler, arguments):
    """Serves `handler` on `arguments.host`/`arguments.port`, prints `PORT <n>`, and runs until the parent ends."""
    server = ThreadingHTTPServer((arguments.host, arguments.port), handler)
    server.daemon_threads = True
    threading.Thread(target=exit_with_parent, args=(os.getppid(),), daemon=True).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
