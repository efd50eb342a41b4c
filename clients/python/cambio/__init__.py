"""The official Python client for the Cambio API.

    from cambio import Cambio
    cambio = Cambio(api_key=KEY, api_secret=SECRET, base_url=API)
    deposit = cambio.deposits.create(method="usdt", network="tron", reference="order-1", amount="25")

See README.md for every call, errors, retries, pagination and webhook verification.
"""

from ._client import Cambio, Page
from ._errors import (
    ApiServerError,
    AuthenticationError,
    CambioError,
    ConflictError,
    ConnectionError,
    InvalidRequestError,
    InvalidResponseError,
    NotFoundError,
    RateLimitError,
    RefusedError,
    WebhookVerificationError,
)
from ._types import (
    API_VERSION,
    Balance,
    Company,
    Conversion,
    CreatedWebhook,
    CurrencyBalance,
    DeletedWebhook,
    Deposit,
    DepositSplit,
    DepositTransaction,
    ErrorCode,
    EventType,
    FieldError,
    Quote,
    Webhook,
    Withdrawal,
)
from ._version import __version__
from ._webhooks import DEFAULT_TOLERANCE, WebhookEvent, verify_webhook

# `ConnectionError` is left out on purpose: `from cambio import *` would otherwise hide Python's
# built-in ConnectionError in the importing module. Use `cambio.ConnectionError` (it subclasses the
# builtin, so `except ConnectionError:` catches it either way).
__all__ = [
    "Cambio",
    "Page",
    "CambioError",
    "InvalidRequestError",
    "AuthenticationError",
    "NotFoundError",
    "ConflictError",
    "RefusedError",
    "RateLimitError",
    "ApiServerError",
    "WebhookVerificationError",
    "InvalidResponseError",
    "WebhookEvent",
    "verify_webhook",
    "DEFAULT_TOLERANCE",
    "Company",
    "Balance",
    "CurrencyBalance",
    "Deposit",
    "DepositTransaction",
    "DepositSplit",
    "Withdrawal",
    "Quote",
    "Conversion",
    "Webhook",
    "CreatedWebhook",
    "DeletedWebhook",
    "FieldError",
    "EventType",
    "ErrorCode",
    "API_VERSION",
    "__version__",
]
