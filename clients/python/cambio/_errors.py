"""Every failure the client reports is a :class:`CambioError`.

The subclass tells the family (what to do about it), ``code`` the contract's reason, ``status``
the HTTP status and ``request_id`` the id to quote to support. Match on the class or on ``code``,
never on the message.
"""

from __future__ import annotations

import builtins
from typing import Any, Mapping, Optional

__all__ = [
    "CambioError",
    "InvalidRequestError",
    "AuthenticationError",
    "NotFoundError",
    "ConflictError",
    "RefusedError",
    "RateLimitError",
    "ApiServerError",
    "ConnectionError",
    "WebhookVerificationError",
    "InvalidResponseError",
]


class CambioError(Exception):
    """The base of every error the client raises."""

    #: The contract's code (``INSUFFICIENT_BALANCE``, …) or a client-side one: ``CONNECTION_FAILED``,
    #: ``TIMEOUT``, ``INVALID_RESPONSE``, ``WEBHOOK_VERIFICATION_FAILED``.
    code: str
    #: The HTTP status; ``None`` when no answer came back.
    status: Optional[int]
    #: The answer's ``X-Request-Id``: quote it to support.
    request_id: Optional[str]
    #: ``error.details`` from the answer: for ``VALIDATION_FAILED`` a list of ``{"path", "message"}``.
    details: Any

    def __init__(
        self,
        message: str,
        *,
        code: str,
        status: Optional[int] = None,
        request_id: Optional[str] = None,
        details: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.status = status
        self.request_id = request_id
        self.details = details

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(message={self.message!r}, code={self.code!r}, "
            f"status={self.status!r}, request_id={self.request_id!r})"
        )

    def __reduce__(self):  # pickling (multiprocessing, task queues) keeps every field
        return (_rebuild, (type(self), self.message, self.code, self.status, self.request_id, self.details))


def _rebuild(cls, message, code, status, request_id, details):
    error = cls.__new__(cls)
    CambioError.__init__(error, message, code=code, status=status, request_id=request_id, details=details)
    return error


class InvalidRequestError(CambioError):
    """400, 403, 413, 415: the request itself is wrong (see ``details``), or production's firewall
    refused it (403 ``FORBIDDEN``); retrying it will not help."""


class AuthenticationError(CambioError):
    """401: the key or secret is missing or wrong."""


class NotFoundError(CambioError):
    """404: unknown id (or another company's)."""


class ConflictError(CambioError):
    """409: a duplicate reference, a quote already used, or the same Idempotency-Key still running."""


class RefusedError(CambioError):
    """422: refused on its merits: ``INSUFFICIENT_BALANCE``, ``QUOTE_EXPIRED``, ``AMOUNT_TOO_SMALL``,
    ``LIMIT_REACHED``, ``ADDRESS_NOT_ALLOWED``, ``IDEMPOTENCY_KEY_REUSED``."""


class RateLimitError(CambioError):
    """429: throttled; the client already retried with backoff."""


class ApiServerError(CambioError):
    """5xx: Cambio failed or a dependency is unavailable (e.g. ``PRICE_UNAVAILABLE``); the client
    already retried."""


class ConnectionError(CambioError, builtins.ConnectionError):
    """No answer: the connection failed (``CONNECTION_FAILED``) or timed out (``TIMEOUT``); the
    client already retried.

    It is also a subclass of Python's built-in ``ConnectionError`` (an ``OSError``), so an
    ``except ConnectionError:`` written against the builtin catches it too. ``status`` is ``None``.
    """


class WebhookVerificationError(CambioError):
    """``webhooks.verify`` refused a delivery: do not trust its body."""

    def __init__(self, message: str, **_: Any) -> None:
        super().__init__(message, code="WEBHOOK_VERIFICATION_FAILED")


class InvalidResponseError(CambioError):
    """An answer that is not JSON or not the API's envelope (``INVALID_RESPONSE``): often a proxy
    or a wrong base URL answering instead of Cambio."""

    def __init__(self, message: str, *, code: str = "INVALID_RESPONSE", **kwargs: Any) -> None:
        super().__init__(message, code=code, **kwargs)


def error_from_response(status: int, body: Any, request_id: Optional[str]) -> CambioError:
    """The one mapping from an error answer to its family (as the Node client's ``errorFromResponse``)."""
    error = body.get("error") if isinstance(body, Mapping) else None
    if not isinstance(error, Mapping):
        error = {}
    code = error.get("code")
    if not isinstance(code, str) or not code:
        code = "INTERNAL_ERROR" if status >= 500 else "INVALID_RESPONSE"
    api_message = error.get("message") if isinstance(error.get("message"), str) else f"HTTP {status}"
    message = f"{api_message} ({code}{f', request {request_id}' if request_id else ''})"
    init = dict(code=code, status=status, request_id=request_id, details=error.get("details"))
    if status == 401:
        return AuthenticationError(message, **init)
    if status == 404:
        return NotFoundError(message, **init)
    if status == 409:
        return ConflictError(message, **init)
    if status == 422:
        return RefusedError(message, **init)
    if status == 429:
        return RateLimitError(message, **init)
    if status >= 500:
        return ApiServerError(message, **init)
    if status >= 400:
        return InvalidRequestError(message, **init)
    return InvalidResponseError(message, **init)
