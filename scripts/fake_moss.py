"""A fake Moss auth service for the API checks: any POST gets a project token that lives an hour.

Imported by check-openapi.py; run as a script (by check-schemathesis.sh) it serves on a free loopback port and
writes that port to the file named by its argument once it listens.
"""

import http.server
import json
import os
import sys


class FakeMoss(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        body = json.dumps({"token": "moss-project-token", "expiresIn": 3600}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), FakeMoss)
    with open(sys.argv[1] + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    server.serve_forever()
