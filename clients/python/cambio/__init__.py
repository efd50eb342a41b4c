"""The official Python client for the Cambio API.

    from cambio import Cambio
    cambio = Cambio(api_key=KEY, api_secret=SECRET, base_url=API)
    deposit = cambio.deposits.create(method="usdt", network="tron", reference="order-1", amount="25")

See README.md for every call, errors, retries, pagination and webhook verification.
"""

from . import _errors, _types, _webhooks
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
    RateLimit,
    Webhook,
    Withdrawal,
    WithdrawalNetworkCost,
)
from ._version import __version__
from ._webhooks import DEFAULT_TOLERANCE, WebhookEvent, verify_webhook, verify_webhook_signature

# `ConnectionError` is left out on purpose: `from cambio import *` would otherwise hide Python's
# built-in ConnectionError in the importing module. Use `cambio.ConnectionError` (it subclasses the
# builtin, so `except ConnectionError:` catches it either way).
__all__ = ["Cambio", "Page", "__version__"]
__all__ += _errors.__all__
__all__.remove("ConnectionError")
__all__ += _webhooks.__all__
__all__ += _types.__all__
