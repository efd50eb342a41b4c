"""Standard Webhooks verification (https://www.standardwebhooks.com/), in two steps as the
reference libraries and Stripe's do it: first the signature and the timestamp, then the body.

The signature is base64(HMAC-SHA256(key, ``{webhook-id}.{webhook-timestamp}.{body}``)) over the
exact bytes Cambio sent, the key being the secret's base64 (after an optional ``whsec_``, padded
or not). A body that verifies is never reported as a bad signature, whatever it holds.
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

__all__ = ["DEFAULT_TOLERANCE", "WebhookEvent", "verify_webhook", "verify_webhook_signature"]

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
    """What Cambio POSTs to a webhook, once verified.

    A verified body that is not a Cambio event (not JSON, or without ``id``, ``type`` and
    ``data``) comes back as one too, with ``type`` None: ``is_cambio_event`` is then False.
    """

    #: ``evt_…``; also the ``webhook-id`` header, the same on every retry: deduplicate on it.
    id: str
    #: ``deposit.completed``, ``withdrawal.failed``, … (openapi.json ``webhooks``); None when the
    #: verified body is not a Cambio event.
    type: Optional[str]
    created_at: Optional[str]
    #: The record: a :class:`Deposit`, :class:`Withdrawal` or :class:`Conversion` by ``type``
    #: (the raw dict for an event type this version of the client does not know).
    data: Union[Deposit, Withdrawal, Conversion, Dict[str, Any], None]

    @property
    def is_cambio_event(self) -> bool:
        return self.type is not None

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
    """Verifies the delivery (:func:`verify_webhook_signature`), then returns its event.

    Raises WebhookVerificationError, saying what failed, when it is not signed with ``secret`` or
    not fresh. A verified body that is not a Cambio event is returned with ``type`` None, never
    refused. ``raw_body``: the request body exactly as received (bytes or str). ``headers``: any
    mapping (a dict, Flask's ``request.headers``, Django's ``request.headers`` or ``request.META``,
    Starlette's ``Headers``, ``http.server``'s ``self.headers``) or a list of (name, value) pairs;
    names match case-insensitively. ``secret``: the webhook's ``whsec_…`` signing secret, or its raw
    base64 key. ``tolerance``: seconds ``webhook-timestamp`` may be away from ``now``, either way
    (default 300). ``now``: for tests, the current time (unix seconds or a datetime).
    """
    body, msg_id = _signed_delivery(raw_body, headers, secret, tolerance, now)
    return _event(body, msg_id)


def verify_webhook_signature(
    raw_body: RawBody,
    headers: Headers,
    secret: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    now: Union[None, float, int, datetime] = None,
) -> None:
    """The first step of :func:`verify_webhook` alone: raises WebhookVerificationError unless the
    delivery is signed with ``secret`` and fresh. The body is not read."""
    _signed_delivery(raw_body, headers, secret, tolerance, now)


def _signed_delivery(raw_body: Any, headers: Any, secret: Any, tolerance: float, now: Any) -> "tuple[bytes, str]":
    key = _signing_key(secret)
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
    age = _now_seconds(now) - int(timestamp)
    beyond = f"beyond the {tolerance:g} s tolerance (a replayed or delayed delivery, or a wrong clock)"
    if age > tolerance:
        raise WebhookVerificationError(f"webhook-timestamp is too old: {age} s before now, {beyond}")
    if -age > tolerance:
        raise WebhookVerificationError(f"webhook-timestamp is in the future: {-age} s after now, {beyond}")
    candidates = _candidates(signatures)
    if not any(_matches(candidate, _sign(key, msg_id, timestamp, body)) for candidate in candidates):
        raise WebhookVerificationError(f"No matching signature: {_diagnose(body, key, msg_id, timestamp, candidates)}")
    return body, msg_id


def _event(body: bytes, msg_id: str) -> WebhookEvent:
    """The event when the body is one (an object with a string ``id`` and ``type`` and an object ``data``)."""
    try:
        event = json.loads(body.decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, ValueError):
        event = None
    is_event = (
        isinstance(event, dict)
        and isinstance(event.get("id"), str)
        and isinstance(event.get("type"), str)
        and isinstance(event.get("data"), dict)
    )
    if not is_event:
        return WebhookEvent(id=msg_id, type=None, created_at=None, data=None)
    record = EVENT_DATA_TYPES.get(event["type"])
    data = record._from_api(event["data"]) if record is not None else event["data"]
    return WebhookEvent(id=event["id"], type=event["type"], created_at=event.get("createdAt"), data=data)


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
    """The secret's base64 after an optional ``whsec_``, padding optional (as the reference libraries take it)."""
    if not isinstance(secret, str):
        raise WebhookVerificationError(
            f"The secret is {type(secret).__name__}: pass the webhook's signing secret, \"whsec_…\", as webhooks.create "
            "answered it (CreatedWebhook.secret)"
        )
    # A secret read from an env file or pasted keeps a newline or spaces around it: trimmed first,
    # then the prefix comes off (as the other clients do).
    trimmed = secret.strip()
    encoded = trimmed[len("whsec_"):] if trimmed.startswith("whsec_") else trimmed
    if not encoded:
        raise WebhookVerificationError("The secret is empty: pass the webhook's signing secret, \"whsec_…\", as webhooks.create answered it")
    try:
        return base64.b64decode(encoded.rstrip("=") + "=" * (-len(encoded.rstrip("=")) % 4), validate=True)
    except (binascii.Error, ValueError):
        raise WebhookVerificationError("The secret is not base64 after \"whsec_\": copy it whole") from None


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
    """Why no signature matched, as far as it can be known: the mistakes that leave a mark are
    named, anything else is not guessed at."""
    if not candidates:
        return 'webhook-signature holds no v1 signature ("v1,<base64>"), the only scheme Cambio signs with.'
    text = body.decode("utf-8", errors="replace")
    if text.startswith("{'") or text.startswith("b'") or text.startswith('b"'):
        return f"the body looks like str() of a Python object, not the bytes Cambio sent: it was re-serialised. {RAW_BODY_HINT}"
    try:
        compact = json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    except ValueError:
        compact = text
    # Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
    if compact != text and any(_matches(c, _sign(key, msg_id, timestamp, compact.encode("utf-8"))) for c in candidates):
        return (
            "the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes "
            f"you passed. {RAW_BODY_HINT}"
        )
    return f"the secret is not this webhook's, or the body or webhook-id is not what was signed. {RAW_BODY_HINT}"
