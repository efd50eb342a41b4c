"""clients/conformance/scenario.md, step by step, with the client's public surface only, against the
runtime the environment names (CAMBIO_API_URL, CAMBIO_API_KEY, CAMBIO_API_SECRET,
CAMBIO_SANDBOX_PAY_URL). Skipped only when CAMBIO_API_URL is unset (the bridge always sets it).

Each numbered step is one test, in order; a step that needs an earlier one's result fails saying so."""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.request
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable, Dict, List, Optional, TypeVar

import pytest

import cambio
from cambio import AuthenticationError, Cambio, NotFoundError, RefusedError, WebhookVerificationError

pytestmark = pytest.mark.skipif(not os.environ.get("CAMBIO_API_URL"), reason="CAMBIO_API_URL is not set: no live runtime to run the scenario against")

# An address no Cambio deposit can have: its key is sha256("cambio documentation payout address").
PAYOUT_ADDRESS = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui"
T = TypeVar("T")

state: Dict[str, Any] = {}


def need(*names: str) -> List[Any]:
    missing = [name for name in names if name not in state]
    if missing:
        pytest.fail(f"an earlier step did not complete (no {', '.join(missing)})")
    return [state[name] for name in names]


def until(read: Callable[[], T], done: Callable[[T], bool], timeout: float) -> T:
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if done(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not reached within {timeout} s; last: {value!r}")
        time.sleep(0.25)


class Receiver:
    """An HTTP receiver on 127.0.0.1 that keeps each request's raw body bytes and headers, answers 204."""

    def __init__(self) -> None:
        self.deliveries: List[Dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                outer.deliveries.append({"headers": self.headers, "body": raw})
                self.send_response(204)
                self.end_headers()

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        self.port = self.httpd.server_address[1]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="module", autouse=True)
def receiver():
    if not os.environ.get("CAMBIO_API_URL"):
        yield None
        return
    made = Receiver()
    state["receiver"] = made
    yield made
    made.close()


def test_step_00_construct():
    client = Cambio(api_key=os.environ["CAMBIO_API_KEY"], api_secret=os.environ["CAMBIO_API_SECRET"], base_url=os.environ["CAMBIO_API_URL"])
    assert isinstance(state["receiver"].port, int)
    state["cambio"] = client


def test_step_01_company():
    (client,) = need("cambio")
    company = client.company.get()
    assert company.environment == "sandbox"
    assert company.id.startswith("cmp_")
    # A new company is at the standard tier; its figures are the stage's, whatever they are.
    rate_limit = company.rate_limit
    assert isinstance(rate_limit, cambio.RateLimit)
    assert rate_limit.tier == "standard"
    assert type(rate_limit.requests_per_second) is int and rate_limit.requests_per_second > 0
    assert type(rate_limit.burst) is int and rate_limit.burst >= rate_limit.requests_per_second
    balance = client.company.balance()
    assert sorted(b.currency for b in balance.balances) == ["BRL", "USDT"]
    for each in balance.balances:
        assert all(isinstance(value, str) for value in (each.available, each.pending, each.locked))


def test_step_02_webhook_created():
    client, receiver = need("cambio", "receiver")
    url = f"http://127.0.0.1:{receiver.port}/hooks"
    webhook = client.webhooks.create(url=url, events=["*"])
    assert webhook.id.startswith("whk_")
    assert webhook.secret.startswith("whsec_")
    state.update(webhook=webhook, webhook_url=url)


def test_step_03_deposit_paid_and_completed():
    (client,) = need("cambio")
    deposit = client.deposits.create(method="usdt", network="tron", reference=f"conformance-{uuid.uuid4()}", amount="25")
    assert (deposit.status, deposit.amount) == ("awaiting_payment", "25.000000")
    assert deposit.address
    pay = urllib.request.Request(
        os.environ["CAMBIO_SANDBOX_PAY_URL"], data=json.dumps({"address": deposit.address, "amount": "25"}).encode(), method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(pay, timeout=30) as paid:
        assert paid.status == 200
    completed = until(lambda: client.deposits.get(deposit.id), lambda d: d.status == "completed", 60)
    assert (completed.credited_amount, completed.received_amount) == ("25.000000", "25.000000")
    state["deposit"] = completed


def test_step_04_delivery_verified():
    client, receiver, webhook, deposit = need("cambio", "receiver", "webhook", "deposit")

    def verified() -> Optional[Dict[str, Any]]:
        for delivery in list(receiver.deliveries):
            try:
                event = client.webhooks.verify(delivery["body"], delivery["headers"], webhook.secret)
            except WebhookVerificationError:
                continue
            if event.type == "deposit.completed" and event.data.id == deposit.id:
                return delivery
        return None

    delivery = until(verified, lambda found: found is not None, 30)
    assert delivery is not None
    tampered = bytearray(delivery["body"])
    tampered[-2] ^= 1
    with pytest.raises(WebhookVerificationError):
        client.webhooks.verify(bytes(tampered), delivery["headers"], webhook.secret)


def test_step_05_conversion():
    (client,) = need("cambio")
    quote = client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount="10")
    assert quote.id.startswith("qte_")
    assert quote.settlement_amount
    conversion = client.conversions.create(quote_id=quote.id)
    assert (conversion.status, conversion.settlement_amount) == ("completed", quote.settlement_amount)
    state["conversion"] = conversion


def test_step_06_idempotent_replay():
    (client,) = need("cambio")
    second = client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount="1")
    key = f"conformance-{uuid.uuid4()}"
    first = client.conversions.create(quote_id=second.id, idempotency_key=key)
    replayed = client.conversions.create(quote_id=second.id, idempotency_key=key)
    assert replayed.id == first.id
    usdt = next(b for b in client.company.balance().balances if b.currency == "USDT")
    assert usdt.available == "14.000000"  # 25 − 10 − 1: one conversion, not two
    state["second_conversion"] = first


def test_step_07_pagination():
    client, conversion, second = need("cambio", "conversion", "second_conversion")
    page = client.conversions.list(limit=1)
    assert len(page.data) == 1
    assert page.next_cursor
    walked = [each.id for each in client.conversions.list(limit=1).auto_paging_iter()]
    assert walked == [second.id, conversion.id]


def test_step_08_refused():
    (client,) = need("cambio")
    with pytest.raises(RefusedError) as caught:
        client.withdrawals.create(method="usdt", network="tron", address=PAYOUT_ADDRESS, amount="1000", reference=f"conformance-{uuid.uuid4()}")
    assert (caught.value.code, caught.value.status) == ("INSUFFICIENT_BALANCE", 422)
    assert caught.value.request_id


def test_step_09_authentication():
    wrong = Cambio(api_key=os.environ["CAMBIO_API_KEY"], api_secret="not-the-secret", base_url=os.environ["CAMBIO_API_URL"])
    with pytest.raises(AuthenticationError) as caught:
        wrong.company.get()
    assert (caught.value.code, caught.value.status) == ("AUTH_FAILED", 401)


def test_step_10_not_found():
    (client,) = need("cambio")
    with pytest.raises(NotFoundError) as caught:
        client.deposits.get("dep_00000000000000000000000000")
    assert (caught.value.code, caught.value.status) == ("NOT_FOUND", 404)


def test_step_11_webhook_managed():
    client, webhook, url = need("cambio", "webhook", "webhook_url")
    updated = client.webhooks.update(webhook.id, url=url, events=["deposit.completed"])
    assert updated.events == ["deposit.completed"]
    assert client.webhooks.get(webhook.id).events == ["deposit.completed"]
    assert webhook.id in [w.id for w in client.webhooks.list().data]
    deleted = client.webhooks.delete(webhook.id)
    assert (deleted.id, deleted.deleted) == (webhook.id, True)
    with pytest.raises(NotFoundError):
        client.webhooks.get(webhook.id)
    assert isinstance(deleted, cambio.DeletedWebhook)
