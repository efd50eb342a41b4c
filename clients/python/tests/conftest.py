"""Shared fixtures: a scripted HTTP server on 127.0.0.1 (a free port, in a thread) that answers each
request as a test says and records what it received."""

from __future__ import annotations

import json
import socket
import ssl
import sys
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Union

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the package under test, from this folder (no install needed)

import cambio  # noqa: E402

KEY = "ck_test_key"
SECRET = "cs_test_SUPERSECRET_9f8e7d"
FAST = dict(initial_retry_delay=0.005, max_retry_delay=0.02)


@dataclass
class Seen:
    method: str
    path: str
    headers: Dict[str, str]
    body: bytes
    at: float

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


@dataclass
class Reply:
    status: int = 200
    body: Union[None, bytes, str, Dict[str, Any], List[Any]] = None
    headers: Dict[str, str] = field(default_factory=dict)
    #: Seconds between 4-byte pieces of the body (an answer that trickles in), or 0.
    trickle: float = 0


#: Close the connection without answering.
DROP = "drop"
#: Never answer (until the server closes).
HANG = "hang"

Script = Callable[[Seen, int], Union[Reply, str]]


def ok(data: Any, status: int = 200, **extra: Any) -> Reply:
    return Reply(status, {"success": True, "data": data, **extra})


def failure(status: int, code: str, message: Optional[str] = None, details: Any = None, headers: Optional[Dict[str, str]] = None) -> Reply:
    return Reply(status, {"success": False, "error": {"code": code, "message": message or code, "details": details}}, headers or {})


#: The status each of the contract's error codes comes with, and the error family it raises (as
#: the Node client's errorFromResponse): one table for every test that scripts an error.
ERRORS = {
    "VALIDATION_FAILED": (400, cambio.InvalidRequestError),
    "INVALID_JSON": (400, cambio.InvalidRequestError),
    "AUTH_FAILED": (401, cambio.AuthenticationError),
    "FORBIDDEN": (403, cambio.InvalidRequestError),
    "NOT_FOUND": (404, cambio.NotFoundError),
    "DUPLICATE_REFERENCE": (409, cambio.ConflictError),
    "QUOTE_ALREADY_USED": (409, cambio.ConflictError),
    "PAYLOAD_TOO_LARGE": (413, cambio.InvalidRequestError),
    "UNSUPPORTED_MEDIA_TYPE": (415, cambio.InvalidRequestError),
    "INSUFFICIENT_BALANCE": (422, cambio.RefusedError),
    "IDEMPOTENCY_KEY_REUSED": (422, cambio.RefusedError),
    "RATE_LIMITED": (429, cambio.RateLimitError),
    "INTERNAL_ERROR": (500, cambio.ApiServerError),
    "PRICE_UNAVAILABLE": (503, cambio.ApiServerError),
    "NETWORK_UNAVAILABLE": (503, cambio.ApiServerError),
    "SCREENING_UNAVAILABLE": (503, cambio.ApiServerError),
}

#: The details of a VALIDATION_FAILED answer.
VALIDATION = [{"path": "amount", "message": "must be a decimal string"}]


#: A self-signed certificate for 127.0.0.1/localhost (valid until 2126), made for these tests only
#: with `openssl req -x509 -newkey rsa:2048 -nodes -days 36500 -subj /CN=127.0.0.1
#: -addext subjectAltName=IP:127.0.0.1,DNS:localhost`; its key protects nothing.
TLS_CERT = Path(__file__).resolve().parent / "tls" / "cert.pem"
TLS_KEY = Path(__file__).resolve().parent / "tls" / "key.pem"


class ScriptedServer:
    def __init__(self, script: Script, tls: bool = False, port: int = 0) -> None:
        self.script = script
        self.seen: List[Seen] = []
        self.closing = threading.Event()
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def handle_one_request(self) -> None:
                try:
                    super().handle_one_request()
                except OSError:
                    self.close_connection = True

            def _any(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                seen = Seen(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, body, time.monotonic())
                with outer.lock:
                    outer.seen.append(seen)
                    attempt = len(outer.seen)
                reply = outer.script(seen, attempt)
                if reply == DROP:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                if reply == HANG:
                    outer.closing.wait(10)
                    self.close_connection = True
                    return
                assert isinstance(reply, Reply)
                payload = reply.body
                if isinstance(payload, (dict, list)):
                    payload = json.dumps(payload).encode("utf-8")
                elif isinstance(payload, str):
                    payload = payload.encode("utf-8")
                payload = payload or b""
                self.send_response(reply.status)
                headers = {"Content-Type": "application/json", "X-Request-Id": f"req-{attempt}", **reply.headers}
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(payload)))
                self.send_header("Connection", "close")
                self.end_headers()
                if reply.trickle:
                    for at in range(0, len(payload), 4):
                        self.wfile.write(payload[at:at + 4])
                        self.wfile.flush()
                        if outer.closing.wait(reply.trickle):
                            break
                else:
                    self.wfile.write(payload)
                self.close_connection = True

            do_GET = do_POST = do_PUT = do_DELETE = _any

        self.httpd = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.httpd.daemon_threads = True
        if tls:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(str(TLS_CERT), str(TLS_KEY))
            self.httpd.socket = context.wrap_socket(self.httpd.socket, server_side=True)
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.httpd.server_address[1]}"

    def client(self, **options: Any) -> cambio.Cambio:
        settings = {"api_key": KEY, "api_secret": SECRET, "base_url": self.url, **FAST}
        settings.update(options)
        return cambio.Cambio(**settings)

    def close(self) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def scripted():
    """``scripted(script)`` starts a server answering with ``script(seen, attempt)`` (over TLS with
    ``tls=True``, on a given ``port=`` rather than a free one); closed after the test."""
    servers: List[ScriptedServer] = []

    def start(script: Script, tls: bool = False, port: int = 0) -> ScriptedServer:
        server = ScriptedServer(script, tls, port)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.close()


def free_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


WITHDRAWAL = {
    "id": "wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
    "method": "usdt",
    "reference": "payout-1",
    "network": "tron",
    "address": "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
    "amount": "5.000000",
    "fee": "1.000000",
    "status": "pending",
    "txHash": None,
    "deliveredAmount": None,
    "networkCost": None,
    "failureReason": None,
    "createdAt": "2026-01-15T12:00:00.000Z",
    "updatedAt": "2026-01-15T12:00:00.000Z",
    "completedAt": None,
}
WITHDRAWAL_PARAMS = dict(method="usdt", network="tron", address=WITHDRAWAL["address"], amount="5", reference="payout-1")


def conversion(n: int) -> Dict[str, Any]:
    return {
        "id": f"cnv_{n:026d}",
        "quoteId": f"qte_{n:026d}",
        "reference": None,
        "sourceCurrency": "USDT",
        "settlementCurrency": "BRL",
        "sourceAmount": "10.000000",
        "settlementAmount": "54.00",
        "rate": "5.40000000",
        "status": "completed",
        "createdAt": "2026-01-15T12:00:00.000Z",
        "completedAt": "2026-01-15T12:00:00.000Z",
    }


DEPOSIT = {
    "id": "dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
    "method": "usdt",
    "reference": "order-1",
    "network": "tron",
    "address": "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8",
    "amount": "25.000000",
    "receivedAmount": "25.000000",
    "creditedAmount": "24.000000",
    "amountStatus": "exact",
    "status": "completed",
    "holdReason": None,
    "confirmations": 19,
    "requiredConfirmations": 19,
    "transactions": [{"txHash": "ab12", "amount": "25.000000", "blockNumber": 7, "confirmations": 19, "status": "confirmed"}],
    "split": {"address": "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "percent": 4.5, "amount": None, "forwardedAmount": "1.000000", "withdrawalId": None},
    "expiresAt": "2026-01-16T12:00:00.000Z",
    "createdAt": "2026-01-15T12:00:00.000Z",
    "updatedAt": "2026-01-15T12:00:00.000Z",
    "aFieldFromANewerApi": True,
}
QUOTE = {
    "id": "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "sourceCurrency": "USDT", "settlementCurrency": "BRL", "sourceAmount": "10.500000",
    "settlementAmount": "56.70", "rate": "5.40000000", "expiresAt": "2026-01-15T12:00:30.000Z", "createdAt": "2026-01-15T12:00:00.000Z",
}
WEBHOOK = {
    "id": "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "url": "https://example.com/hooks", "events": ["*"], "description": None, "enabled": True,
    "createdAt": "2026-01-15T12:00:00.000Z", "updatedAt": "2026-01-15T12:00:00.000Z",
}
COMPANY = {
    "id": "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "name": "Acme", "environment": "sandbox", "status": "active", "createdAt": "2026-01-15T12:00:00.000Z",
    "rateLimit": {"tier": "growth", "requestsPerSecond": 50, "burst": 100},
}
BALANCE = {
    "balances": [
        {"currency": "USDT", "available": "14.000000", "pending": "0.000000", "locked": "6.000000"},
        {"currency": "BRL", "available": "54.00", "pending": "0.00", "locked": "0.00"},
    ],
    "updatedAt": "2026-01-15T12:00:00.000Z",
}



def fake_api(seen: Seen, attempt: int) -> Reply:
    """A stand-in for the API with canned records: withdrawals whose reference is payout-1 or
    payout-3 are refused for balance (as the README's examples expect)."""
    path = seen.path.split("?")[0]
    parts = path.strip("/").split("/")[1:]  # after v1
    body = seen.json() if seen.body else {}
    if parts == ["company"]:
        return ok(COMPANY)
    if parts == ["company", "balance"]:
        return ok(BALANCE)
    if parts[0] == "deposits":
        return ok(DEPOSIT, 201 if seen.method == "POST" else 200)
    if parts[0] == "withdrawals":
        if seen.method == "POST" and body.get("reference") in ("payout-1", "payout-3"):
            return failure(422, "INSUFFICIENT_BALANCE", "Available balance is below amount + fee")
        return ok(WITHDRAWAL, 201 if seen.method == "POST" else 200)
    if parts == ["conversions", "quote"]:
        return ok(QUOTE, 201)
    if parts == ["conversions"] and seen.method == "GET":
        items = [conversion(n) for n in range(3, 0, -1)]
        start = 1 if "cursor=" in seen.path else 0
        return ok(items[start:] if start else items[:1], pagination={"nextCursor": None if start else "next"})
    if parts[0] == "conversions":
        return ok(conversion(1), 201 if seen.method == "POST" else 200)
    if parts == ["webhooks"] and seen.method == "GET":
        return ok([WEBHOOK], pagination={"nextCursor": None})
    if parts[0] == "webhooks":
        if seen.method == "POST":
            return ok({**WEBHOOK, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, 201)
        if seen.method == "DELETE":
            return ok({"id": WEBHOOK["id"], "deleted": True})
        return ok(WEBHOOK)
    return failure(404, "NOT_FOUND")
