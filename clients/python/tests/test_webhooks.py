"""webhooks.verify: every vector of clients/conformance/vectors.json (with the clock set to the
vector's `now`), and the containers Python web frameworks hand over."""

from __future__ import annotations

import base64
import email.message
import hashlib
import hmac
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest

import cambio

VECTORS_PATH = Path(os.environ.get("CAMBIO_CONFORMANCE_VECTORS") or Path(__file__).resolve().parent.parent.parent / "conformance" / "vectors.json")
VECTORS = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
VALID = next(v for v in VECTORS["vectors"] if v["name"] == "valid")
CLIENT = cambio.Cambio(api_key="k", api_secret="s", base_url="http://127.0.0.1:1")


def test_the_vectors_file_is_the_shared_one_and_uses_the_default_tolerance():
    assert len(VECTORS["vectors"]) >= 13
    assert VECTORS["toleranceSeconds"] == cambio.DEFAULT_TOLERANCE == 300


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=[v["name"] for v in VECTORS["vectors"]])
def test_vector(vector):
    args = (vector["body"], vector["headers"], vector["secret"])

    if vector["expect"] == "rejected":
        for verify in (CLIENT.webhooks.verify, CLIENT.webhooks.verify_signature):
            with pytest.raises(cambio.WebhookVerificationError) as caught:
                verify(*args, now=vector["now"])
            assert caught.value.code == "WEBHOOK_VERIFICATION_FAILED"
            assert vector["messageIncludes"].lower() in str(caught.value).lower()
        return
    assert CLIENT.webhooks.verify_signature(*args, now=vector["now"]) is None
    event = CLIENT.webhooks.verify(*args, now=vector["now"])
    # bytes verify the same as str
    assert CLIENT.webhooks.verify(vector["body"].encode("utf-8"), *args[1:], now=vector["now"]) == event
    assert event.is_cambio_event == (vector["expect"] == "event")
    if vector["expect"] == "event":
        assert event.type == vector["eventType"]
        assert event.id == json.loads(vector["body"])["id"]
    else:
        headers = {name.lower(): value for name, value in vector["headers"].items()}
        assert (event.id, event.type, event.created_at, event.data) == (headers["webhook-id"], None, None, None)


def test_the_event_is_typed_with_snake_case_attributes():
    event = CLIENT.webhooks.verify(VALID["body"], VALID["headers"], VALID["secret"], now=VALID["now"])
    assert isinstance(event, cambio.WebhookEvent)
    assert isinstance(event.data, cambio.Deposit)
    assert (event.created_at, event.data.reference, event.data.credited_amount) == ("2026-01-01T00:00:00.000Z", "order-1", "25.000000")
    assert event.to_dict()["data"]["receivedAmount"] == "25.000000"


def test_headers_in_the_containers_frameworks_hand_over():
    headers = VALID["headers"]
    message = email.message.Message()  # http.server's self.headers
    for name, value in headers.items():
        message[name.title()] = value
    django_meta = {"HTTP_" + name.upper().replace("-", "_"): value for name, value in headers.items()}
    pairs = [(name.upper().encode(), value.encode()) for name, value in headers.items()]  # ASGI raw headers
    for container in (message, django_meta, pairs, list(headers.items())):
        assert CLIENT.webhooks.verify(VALID["body"], container, VALID["secret"], now=VALID["now"]).type == "deposit.completed"


def test_bytes_bytearray_and_memoryview_bodies_verify_byte_exact():
    raw = VALID["body"].encode("utf-8")
    for body in (raw, bytearray(raw), memoryview(raw)):
        assert cambio.verify_webhook(body, VALID["headers"], VALID["secret"], now=VALID["now"]).type == "deposit.completed"


def test_a_parsed_body_is_refused_naming_the_raw_body_mistake():
    parsed = json.loads(VALID["body"])
    with pytest.raises(cambio.WebhookVerificationError, match="raw_body is a dict.*raw request body"):
        CLIENT.webhooks.verify(parsed, VALID["headers"], VALID["secret"], now=VALID["now"])
    with pytest.raises(cambio.WebhookVerificationError, match="re-serialised"):
        CLIENT.webhooks.verify(str(parsed), VALID["headers"], VALID["secret"], now=VALID["now"])
    with pytest.raises(cambio.WebhookVerificationError, match="re-serialised"):
        CLIENT.webhooks.verify(json.dumps(parsed), VALID["headers"], VALID["secret"], now=VALID["now"])  # Python's default separators


def test_tolerance_and_clock_are_options():
    stale = next(v for v in VECTORS["vectors"] if v["name"] == "stale timestamp")
    assert CLIENT.webhooks.verify(stale["body"], stale["headers"], stale["secret"], now=stale["now"], tolerance=400).type == "deposit.completed"
    at = datetime.fromtimestamp(VALID["now"], tz=timezone.utc)
    assert CLIENT.webhooks.verify(VALID["body"], VALID["headers"], VALID["secret"], now=at).type == "deposit.completed"
    with pytest.raises(cambio.WebhookVerificationError, match="too old: .* s before now, beyond the 300 s tolerance"):
        CLIENT.webhooks.verify(VALID["body"], VALID["headers"], VALID["secret"])  # the real clock: signed in 2026-01-01


def test_the_secret_is_whsec_or_the_raw_key_padded_or_not():
    raw = VALID["secret"][len("whsec_"):]
    assert CLIENT.webhooks.verify(VALID["body"], VALID["headers"], raw, now=VALID["now"]).type == "deposit.completed"
    for secret, message in (("whsec_not base64!", "not base64"), ("whsec_", "secret is empty"), ("", "secret is empty"), (None, "secret is NoneType")):
        with pytest.raises(cambio.WebhookVerificationError, match=message):
            CLIENT.webhooks.verify(VALID["body"], VALID["headers"], secret, now=VALID["now"])


def test_a_plain_wrong_signature_is_not_blamed_on_re_serialisation():
    forged = dict(VALID["headers"], **{"webhook-signature": "v1," + base64.b64encode(bytes(32)).decode()})
    with pytest.raises(cambio.WebhookVerificationError) as caught:
        CLIENT.webhooks.verify(VALID["body"], forged, VALID["secret"], now=VALID["now"])
    assert str(caught.value).startswith("No matching signature: the secret is not this webhook's")
    assert "re-serialised" not in str(caught.value)


def _signed_event(event_type, data):
    """A delivery of one event, signed as Cambio signs it: (body, headers, secret), at 1767225600."""
    key = b"k" * 24
    body = json.dumps({"id": "evt_1", "type": event_type, "createdAt": "2026-01-01T00:00:00.000Z", "data": data}, separators=(",", ":"))
    signature = base64.b64encode(hmac.new(key, f"evt_1.1767225600.{body}".encode(), hashlib.sha256).digest()).decode()
    headers = {"webhook-id": "evt_1", "webhook-timestamp": "1767225600", "webhook-signature": f"v1,{signature}"}
    return body, headers, "whsec_" + base64.b64encode(key).decode()


def test_an_event_type_this_client_does_not_know_keeps_its_data_as_a_dict():
    event = cambio.verify_webhook(*_signed_event("webhook.test", {"hello": "world"}), now=1767225600)
    assert (event.type, event.data) == ("webhook.test", {"hello": "world"})


@pytest.mark.parametrize(
    "event_type, changed, expected",
    [
        pytest.param(
            "deposit.transfer_reversed",
            {"network": "bsc", "address": "0x52908400098527886E0F7030069857D2E4169EE7", "status": "awaiting_payment", "receivedAmount": "0.000000"},
            {"network": "bsc", "address": "0x52908400098527886E0F7030069857D2E4169EE7", "received_amount": "0.000000"},
            id="deposit.transfer_reversed",
        ),
        pytest.param(
            "deposit.held",
            {"status": "held", "holdReason": "address_frozen", "receivedAmount": "25.000000", "creditedAmount": "0.000000"},
            {"status": "held", "hold_reason": "address_frozen", "received_amount": "25.000000", "credited_amount": "0.000000"},
            id="deposit.held",
        ),
    ],
)
def test_a_reversed_or_held_deposit_is_a_typed_deposit_event(event_type, changed, expected):
    """``changed``: the API's fields the vector's completed deposit takes; ``expected``: the Deposit's attributes then."""
    deposit = dict(json.loads(VALID["body"])["data"], **changed)
    event = CLIENT.webhooks.verify(*_signed_event(event_type, deposit), now=1767225600)
    assert event.type == event_type
    assert isinstance(event.data, cambio.Deposit)
    assert {attribute: getattr(event.data, attribute) for attribute in expected} == expected
