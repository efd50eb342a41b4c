"""Standard Webhooks verification (https://www.standardwebhooks.com/).

The signature is base64(HMAC-SHA256(key, ``{webhook-id}.{webhook-timestamp}.{body}``)) over the
exact bytes Cambio sent, the key being the base64-decoded part of the secret after ``whsec_``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any, Dict, Iterable, List, Mapping, Optional, Union

from ._errors import WebhookVerificationError
from ._record import Record
from ._types import EVENT_DATA_TYPES, Conversion, Deposit, Withdrawal

__all__ = ["DEFAULT_TOLERANCE", "WebhookEvent", "verify_webhook"]

#: How far ``webhook-timestamp`` may be from now, in seconds (replay protection).
DEFAULT_TOLERANCE = 300

RAW_BODY_HINT = (
    "Pass the raw request body exactly as received, as bytes or str (request.get_data() in Flask, "
    "request.body in Django, await request.body() in FastAPI/Starlette), not a parsed object "
    "serialised again with json.dumps."
)

RawBody = Union[bytes, bytearray, memoryview, str]
Headers = Union[Mapping[str, Any], Iterable[Any]]


@dataclass(frozen=True)
class WebhookEvent:
    """What Cambio POSTs to a webhook, once verified."""

    #: ``evt_…``; also the ``webhook-id`` header, the same on every retry: deduplicate on it.
    id: str
    #: ``deposit.completed``, ``withdrawal.failed``, … (openapi.json ``webhooks``).
    type: str
    created_at: str
    #: The record: a :class:`Deposit`, :class:`Withdrawal` or :class:`Conversion` by ``type``
    #: (the raw dict for an event type this version of the client does not know).
    data: Union[Deposit, Withdrawal, Conversion, Dict[str, Any]]

    def to_dict(self) -> Dict[str, Any]:
        data = self.data.to_dict() if isinstance(self.data, Record) else self.data
        return {"id": self.id, "type": self.type, "createdAt": self.created_at, "data": data}


def verify_webhook(
    raw_body: RawBody,
    headers: Headers,
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Union[None, float, int, datetime] = None,
) -> WebhookEvent:
    """Returns the event when the delivery is authentic and fresh; raises WebhookVerificationError otherwise.

    ``raw_body``: the request body exactly as received (bytes or str). ``headers``: any mapping
    (a dict, Flask's ``request.headers``, Django's ``request.headers`` or ``request.META``,
    Starlette's ``Headers``, ``http.server``'s ``self.headers``) or a list of (name, value) pairs;
    names match case-insensitively. ``secret``: the webhook's ``whsec_…`` signing secret.
    ``tolerance``: seconds ``webhook-timestamp`` may be away from ``now`` (default 300).
    ``now``: for tests, the current time (unix seconds or a datetime).
    """
    body = _body_bytes(raw_body)
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signatures:
        missing = [n for n, v in (("webhook-id", msg_id), ("webhook-timestamp", timestamp), ("webhook-signature", signatures)) if not v]
        raise WebhookVerificationError(
            f"Missing {', '.join(missing)} header: is this a Cambio delivery? Pass the request's own headers "
            "(e.g. request.headers), unchanged."
        )
    if not re.fullmatch(r"[0-9]{1,15}", timestamp):
        raise WebhookVerificationError(f"webhook-timestamp is not unix seconds: {timestamp[:40]!r}")
    current = _now_seconds(now)
    age = current - int(timestamp)
    if abs(age) > tolerance:
        raise WebhookVerificationError(
            f"webhook-timestamp is {abs(age)} s {'old' if age > 0 else 'in the future'}, beyond the {tolerance:g} s tolerance: "
            "a replayed or delayed delivery, or a wrong clock"
        )
    key = _signing_key(secret)
    candidates = _candidates(signatures)
    if not any(_matches(candidate, _sign(key, msg_id, timestamp, body)) for candidate in candidates):
        raise WebhookVerificationError(f"No signature matches. {_diagnose(body, key, msg_id, timestamp, candidates)}")
    try:
        event = json.loads(body.decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, ValueError):
        raise WebhookVerificationError("The signature matches but the body is not JSON") from None
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise WebhookVerificationError("The signature matches but the body is not a Cambio event")
    record = EVENT_DATA_TYPES.get(event["type"])
    data = event.get("data")
    if record is not None and isinstance(data, Mapping):
        data = record._from_api(data)
    return WebhookEvent(id=event.get("id"), type=event["type"], created_at=event.get("createdAt"), data=data)


def _body_bytes(raw_body: Any) -> bytes:
    if isinstance(raw_body, str):
        return raw_body.encode("utf-8")
    if isinstance(raw_body, (bytes, bytearray, memoryview)):
        return bytes(raw_body)
    kind = "None" if raw_body is None else type(raw_body).__name__
    raise WebhookVerificationError(f"raw_body is a {kind}, not the request body. {RAW_BODY_HINT}")


def _header(headers: Any, name: str) -> Optional[str]:
    """All values of one header, joined by a space; names compare case-insensitively. Also finds
    Django's ``request.META`` form (``HTTP_WEBHOOK_ID``)."""
    wanted = {name, "http_" + name.replace("-", "_")}
    if headers is None:
        return None
    pairs: Iterable[Any] = headers.items() if hasattr(headers, "items") else headers
    found: List[str] = []
    for pair in pairs:
        try:
            key, value = pair
        except (TypeError, ValueError):
            continue
        if isinstance(key, bytes):
            key = key.decode("latin-1")
        if not isinstance(key, str) or key.lower() not in wanted:
            continue
        for each in value if isinstance(value, (list, tuple)) else [value]:
            if isinstance(each, bytes):
                each = each.decode("latin-1")
            if each is not None:
                found.append(str(each))
    return " ".join(found) if found else None


def _now_seconds(now: Union[None, float, int, datetime]) -> int:
    if now is None:
        return int(time.time())
    if isinstance(now, datetime):
        return int(now.timestamp())
    return int(now)


def _signing_key(secret: Any) -> bytes:
    if not isinstance(secret, str) or not secret.startswith("whsec_"):
        raise WebhookVerificationError(
            "The secret must be the webhook's signing secret, \"whsec_…\", as webhooks.create answered it "
            "(CreatedWebhook.secret)"
        )
    try:
        return base64.b64decode(secret[len("whsec_"):].strip(), validate=True)
    except (binascii.Error, ValueError):
        raise WebhookVerificationError("The secret is not \"whsec_\" followed by base64: copy it whole") from None


def _candidates(signatures: str) -> List[bytes]:
    out = []
    for entry in signatures.split(" "):
        if not entry.startswith("v1,"):
            continue
        try:
            out.append(base64.b64decode(entry[3:], validate=True))
        except (binascii.Error, ValueError):
            continue
    return out


def _sign(key: bytes, msg_id: str, timestamp: str, body: bytes) -> bytes:
    return hmac.new(key, f"{msg_id}.{timestamp}.".encode("utf-8") + body, hashlib.sha256).digest()


def _matches(candidate: bytes, expected: bytes) -> bool:
    return hmac.compare_digest(candidate, expected)


def _diagnose(body: bytes, key: bytes, msg_id: str, timestamp: str, candidates: List[bytes]) -> str:
    """Names the usual mistake when the body looks like it was parsed and serialised again."""
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return f"Check that the secret is this webhook's and that the body is unchanged. {RAW_BODY_HINT}"
    if text.startswith("{'") or text.startswith("b'") or text.startswith('b"'):
        return f"The body looks like str() of a Python object, not the bytes Cambio sent: it was re-serialised. {RAW_BODY_HINT}"
    try:
        parsed = json.loads(text)
    except ValueError:
        return f"Check that the secret is this webhook's and that the body is unchanged. {RAW_BODY_HINT}"
    # Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
    compact = json.dumps(parsed, separators=(",", ":"), ensure_ascii=False)
    if compact != text and any(_matches(c, _sign(key, msg_id, timestamp, compact.encode("utf-8"))) for c in candidates):
        return (
            "The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes "
            f"you passed. {RAW_BODY_HINT}"
        )
    if compact != text:
        return f"The body looks like re-serialised JSON (re-indented or re-ordered), not the bytes Cambio signed. {RAW_BODY_HINT}"
    return (
        "The body is JSON: if your framework parsed it and you serialised it again, its bytes may differ from what "
        f"Cambio signed (key order, escapes). {RAW_BODY_HINT} Otherwise check that the "
        "secret is this webhook's."
    )
