#!/usr/bin/env python3
"""An SMTP sink for tokenvend's tests (aiosmtpd): receives messages on loopback and prints each as one JSON line.

    smtp_sink.py --port 0 [--starttls CERT KEY | --tls CERT KEY] [--auth USER:PASS] [--delay SECONDS]
                 [--reject CODE]

Prints `PORT <n>` on stdout once listening (`--port 0`: a port the kernel picks), then for every message accepted
one line `{"mailFrom", "rcptTos", "subject", "text", "html", "raw"}`, where `subject`, `text` and `html` are
decoded by Python's `email` package (an independent parser of what tokenvend wrote; text line breaks given back as
"\n") and `raw` is the message as received. `--starttls` offers STARTTLS and requires it before MAIL; `--tls` speaks TLS from the first byte (smtps);
`--auth` requires AUTH PLAIN/LOGIN with these credentials; `--delay` waits before every reply (greeting included);
`--reject CODE` answers the end of DATA with CODE (550: permanent, 451: transient) and prints nothing.
Tests/MailTesting/SMTPSink.swift starts it; scripts/ensure-python-packages.sh installs aiosmtpd.
"""

import argparse
import asyncio
import email
import email.policy
import json
import signal
import ssl
import sys

try:
    from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword
except ImportError:
    print("aiosmtpd is not installed: run scripts/ensure-python-packages.sh (make test does)", file=sys.stderr)
    sys.exit(3)


def parse_arguments():
    parser = argparse.ArgumentParser(description="SMTP sink for tests")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--starttls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    parser.add_argument("--auth", metavar="USER:PASS")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--reject", type=int)
    return parser.parse_args()


def tls_context(cert, key):
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def body_text(message, subtype):
    part = message.get_body(preferencelist=(subtype,))
    if part is None or part.get_content_type() != "text/" + subtype:
        return None
    # MIME text has CRLF line breaks (RFC 2046 section 4.1.1): given back as "\n", as the text was rendered.
    return part.get_content().replace("\r\n", "\n")


class Handler:
    def __init__(self, reject):
        self.reject = reject

    async def handle_DATA(self, server, session, envelope):
        if self.reject is not None:
            return "%d rejected by the test sink" % self.reject
        raw = envelope.original_content or envelope.content
        message = email.message_from_bytes(raw, policy=email.policy.default)
        record = {
            "mailFrom": envelope.mail_from,
            "rcptTos": list(envelope.rcpt_tos),
            "subject": str(message["subject"]) if message["subject"] is not None else None,
            "text": body_text(message, "plain"),
            "html": body_text(message, "html"),
            "raw": raw.decode("utf-8", errors="replace"),
        }
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()
        return "250 OK"


class DelayedSMTP(SMTP):
    """SMTP that waits `delay` seconds before every reply."""

    delay = 0.0

    async def push(self, status):
        if self.delay > 0:
            await asyncio.sleep(self.delay)
        await super().push(status)


def main():
    arguments = parse_arguments()
    handler = Handler(arguments.reject)
    starttls = tls_context(*arguments.starttls) if arguments.starttls else None
    implicit = tls_context(*arguments.tls) if arguments.tls else None
    authenticator = None
    if arguments.auth:
        user, _, password = arguments.auth.partition(":")

        def authenticator(server, session, envelope, mechanism, auth_data):
            ok = (
                isinstance(auth_data, LoginPassword)
                and auth_data.login == user.encode()
                and auth_data.password == password.encode()
            )
            return AuthResult(success=ok, handled=False)

    DelayedSMTP.delay = arguments.delay

    def factory():
        return DelayedSMTP(
            handler,
            hostname="localhost",
            tls_context=starttls,
            require_starttls=starttls is not None,
            authenticator=authenticator,
            auth_required=authenticator is not None,
            auth_require_tls=starttls is not None or implicit is not None,
            enable_SMTPUTF8=True,
        )

    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(factory, host=arguments.host, port=arguments.port, ssl=implicit, reuse_address=True)
    )
    port = server.sockets[0].getsockname()[1]
    sys.stdout.write("PORT %d\n" % port)
    sys.stdout.flush()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, loop.stop)
    try:
        loop.run_forever()
    finally:
        server.close()


if __name__ == "__main__":
    main()
