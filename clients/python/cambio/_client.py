"""The Cambio client: resource groups over one retrying, idempotent request loop."""

from __future__ import annotations

import email.utils
import http.client
import ipaddress
import json
import platform
import random
import re
import socket
import ssl
import time
import uuid
from datetime import timezone
from decimal import Decimal
from typing import Any, Callable, Dict, Generic, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union
from urllib.parse import quote, urlencode, urlsplit

from ._errors import (
    ApiServerError,
    CambioError,
    ConflictError,
    ConnectionError,
    InvalidResponseError,
    NotFoundError,
    RateLimitError,
    error_from_response,
)
from ._record import Record, api_name
from ._types import (
    CREATE_CONVERSION_FIELDS,
    CREATE_DEPOSIT_FIELDS,
    CREATE_QUOTE_FIELDS,
    CREATE_WITHDRAWAL_FIELDS,
    WEBHOOK_FIELDS,
    Balance,
    Company,
    Conversion,
    CreatedWebhook,
    DeletedWebhook,
    Deposit,
    Quote,
    RequestFields,
    Webhook,
    Withdrawal,
)
from ._version import __version__
from ._webhooks import verify_webhook, verify_webhook_signature

__all__ = ["Cambio", "Page"]

T = TypeVar("T", bound=Record)

#: Where the base URL comes from, for the errors that ask for one. There is no default host: each
#: stage is reached at its own URL (its API Gateway URL, or a custom domain its operator gave it).
WHERE_THE_URL_IS = (
    "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. "
    "https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), or for the local runtime the API URL "
    "`npm start` prints (http://127.0.0.1:3000/v1)"
)

USER_AGENT = f"cambio-python/{__version__} python/{platform.python_version()}"

Money = Union[str, Decimal, int]


class _Credentials:
    """Holds the key and secret out of every repr, str, vars() dump and pickled copy."""

    __slots__ = ("api_key", "api_secret")

    def __init__(self, api_key: str, api_secret: str) -> None:
        self.api_key = api_key
        self.api_secret = api_secret

    def __repr__(self) -> str:
        return "<credentials hidden>"

    __str__ = __repr__

    def __reduce__(self):
        raise TypeError("A Cambio client's credentials are not picklable; build a client in each process")


class Page(Generic[T]):
    """One page of a list call: ``data`` (this page's items) and ``next_cursor`` (``None`` on the
    last page). ``auto_paging_iter()`` walks every item of this page and of every page after it,
    fetching each page only when the previous one is used up."""

    def __init__(
        self,
        data: List[T],
        next_cursor: Optional[str],
        request_id: Optional[str],
        fetch: Callable[[str], "Page[T]"],
        cursor: Optional[str] = None,
    ) -> None:
        self.data = data
        self.next_cursor = next_cursor
        #: The answer's ``X-Request-Id``.
        self.request_id = request_id
        self._fetch = fetch
        self._cursor = cursor  # the cursor this page was asked for (None for the first)

    @property
    def has_more(self) -> bool:
        return bool(self.next_cursor)

    def next_page(self) -> Optional["Page[T]"]:
        """The next page, or ``None`` on the last one."""
        return self._fetch(self.next_cursor) if self.next_cursor else None

    def auto_paging_iter(self) -> Iterator[T]:
        """Every item of this page and of every page after it. A cursor the API answers again after
        this walk followed it (A → B → A) would loop for ever: the walk stops there with an
        ``InvalidResponseError`` instead."""
        followed = {self._cursor} if self._cursor else set()
        page: Page[T] = self
        while True:
            yield from page.data
            following = page.next_cursor
            if not following:
                return
            if following in followed:
                where = f", request {page.request_id}" if page.request_id else ""
                raise InvalidResponseError(
                    f"The API answered nextCursor {following!r} again after this walk had followed it: "
                    f"stopping rather than looping (INVALID_RESPONSE{where})",
                    request_id=page.request_id,
                )
            followed.add(following)
            page = page._fetch(following)

    def __iter__(self) -> Iterator[T]:
        """This page's items only; use ``auto_paging_iter()`` for every page."""
        return iter(self.data)

    def __len__(self) -> int:
        return len(self.data)

    def __repr__(self) -> str:
        return f"Page(data=<{len(self.data)} items>, next_cursor={self.next_cursor!r})"


class Cambio:
    """The Cambio API.

    ``Cambio(api_key=..., api_secret=..., base_url=...)``: ``base_url`` is your stack's ``ApiUrl``
    output or the URL ``npm start`` prints, with or without the trailing ``/v1``; https, or plain
    http on loopback only. Every POST carries an ``Idempotency-Key`` (a UUID v4 unless you pass
    ``idempotency_key=``), the same on each retry of that call, so a retried withdrawal is replayed
    by the API, never made twice.

    Options: ``max_retries`` (default 2) retries after the first try on connection failures,
    timeouts, 409 ``IDEMPOTENCY_KEY_IN_USE``, 429 and 5xx; ``timeout`` (seconds, default 30) per
    try; the backoff before retry n is a random delay between half and all of
    ``min(max_retry_delay, initial_retry_delay × 2^n)`` (0.5 s and 5 s by default), and a
    ``Retry-After`` of at most ``max_retry_after`` seconds (60) is waited instead.

    One instance is safe to share between threads: its settings never change after construction
    and each try opens its own connection.
    """

    def __init__(
        self,
        *,
        api_key: Optional[str] = None,
        api_secret: Optional[str] = None,
        base_url: Optional[str] = None,
        max_retries: int = 2,
        timeout: float = 30.0,
        initial_retry_delay: float = 0.5,
        max_retry_delay: float = 5.0,
        max_retry_after: float = 60.0,
    ) -> None:
        _check_credential("api_key", api_key)
        _check_credential("api_secret", api_secret)
        self.base_url = _base_url_of(base_url)
        parts = urlsplit(self.base_url)
        self._scheme = parts.scheme
        self._host = parts.hostname or ""
        self._port = parts.port
        self._path = parts.path
        self._credentials = _Credentials(api_key, api_secret)  # type: ignore[arg-type]
        self.max_retries = _check_retries(max_retries)
        self.timeout = _positive("timeout", timeout)
        self.initial_retry_delay = _non_negative("initial_retry_delay", initial_retry_delay)
        self.max_retry_delay = _non_negative("max_retry_delay", max_retry_delay)
        self.max_retry_after = _non_negative("max_retry_after", max_retry_after)
        self._ssl: Optional[ssl.SSLContext] = None  # made on the first https request (loading CAs takes time)

        self.company = CompanyResource(self)
        self.deposits = DepositsResource(self)
        self.withdrawals = WithdrawalsResource(self)
        self.conversions = ConversionsResource(self)
        self.webhooks = WebhooksResource(self)

    def __repr__(self) -> str:
        return f"Cambio(base_url={self.base_url!r}, max_retries={self.max_retries}, timeout={self.timeout:g})"

    def __reduce__(self):
        raise TypeError("A Cambio client is not picklable (it holds your API secret); build one in each process")

    # -- the request loop ----------------------------------------------------------------------

    def _data(
        self,
        method: str,
        path: str,
        record: Type[T],
        *,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
        gone_on_retry: Optional[Callable[[], Any]] = None,
    ) -> T:
        data, _, request_id = self._request(
            method, path, body=body, idempotency_key=idempotency_key, max_retries=max_retries, gone_on_retry=gone_on_retry
        )
        return record._from_api(data, request_id=request_id)

    def _page(self, path: str, record: Type[T], limit: Optional[int], cursor: Optional[str], max_retries: Optional[int]) -> Page[T]:
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 100):
            raise ValueError(f"limit must be an int from 1 to 100, got {limit!r}")
        if cursor is not None and (not isinstance(cursor, str) or not cursor):
            raise ValueError("cursor must be a non-empty string: a page's next_cursor")
        query = {k: v for k, v in (("limit", limit), ("cursor", cursor)) if v is not None}
        data, pagination, request_id = self._request("GET", path + (f"?{urlencode(query)}" if query else ""), max_retries=max_retries)
        if not isinstance(data, list):
            raise InvalidResponseError(f"Expected a list in the answer to GET {path}, got {type(data).__name__}", request_id=request_id)
        next_cursor = pagination.get("nextCursor") if isinstance(pagination, Mapping) else None
        if next_cursor is not None and not isinstance(next_cursor, str):
            raise InvalidResponseError("pagination.nextCursor is neither a string nor null", request_id=request_id)
        items = [record._from_api(item, request_id=request_id) for item in data]
        return Page(items, next_cursor or None, request_id, lambda after: self._page(path, record, limit, after, max_retries), cursor)

    def _request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
        gone_on_retry: Optional[Callable[[], Any]] = None,
    ) -> Tuple[Any, Any, Optional[str]]:
        """(data, pagination, request id) of a successful answer; raises a CambioError otherwise.

        ``gone_on_retry``: the data a 404 to a retry of this call stands for (a DELETE whose earlier
        try did the work, its answer lost)."""
        # The key and secret are not in here: _send writes them straight from self._credentials, so
        # no local or argument of a frame an error is raised through holds the secret (error
        # trackers such as Sentry, `pytest -l` and Django's debug page record every frame's locals).
        headers = {"Accept": "application/json", "User-Agent": USER_AGENT}
        payload = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            payload = _json(body).encode("utf-8")
        if method == "POST":
            # One key per call, kept across its retries: the API replays the first answer instead
            # of doing the work again (api-contract.md, Conventions: Idempotency-Key).
            headers["Idempotency-Key"] = _check_idempotency_key(idempotency_key) if idempotency_key is not None else str(uuid.uuid4())
        retries = self.max_retries if max_retries is None else _check_retries(max_retries)
        target = self._path + path
        attempt = 0
        # An earlier try may have done the work: its answer was lost (the connection dropped or timed
        # out once made) or was a 5xx. A 429 did nothing, and neither did a try that never connected
        # (refused, DNS, connect timeout), so a 404 after only those is a real 404.
        may_have_been_done = False
        while True:
            try:
                status, answer_headers, raw = self._send(method, target, headers, payload)
            except _NoAnswer as failure:
                error: CambioError = ConnectionError(
                    f"{failure.describe(self.timeout)} ({method} {self.base_url}{path}): {failure.reason}",
                    code=failure.code,
                )
                if attempt >= retries or not failure.retryable:
                    raise error from failure.cause
                may_have_been_done = may_have_been_done or failure.connected
                time.sleep(self._backoff(attempt))
                attempt += 1
                continue
            request_id = answer_headers.get("x-request-id") or None
            parsed = _parse_json(raw)
            if 200 <= status < 300 and isinstance(parsed, dict) and parsed.get("success") is True and "data" in parsed:
                return parsed["data"], parsed.get("pagination"), request_id
            error = _error_of(status, parsed, raw, request_id)
            if may_have_been_done and gone_on_retry is not None and isinstance(error, NotFoundError):
                return gone_on_retry(), None, request_id
            if attempt >= retries or not _retryable(error):
                raise error
            may_have_been_done = may_have_been_done or isinstance(error, ApiServerError)
            delay = self._retry_after(answer_headers.get("retry-after"))
            time.sleep(self._backoff(attempt) if delay is None else delay)
            attempt += 1

    def _send(self, method: str, target: str, headers: Dict[str, str], payload: Optional[bytes]) -> Tuple[int, Dict[str, str], bytes]:
        """One try: (status, headers with lower-case names, body). Raises _NoAnswer.

        ``headers`` are the request's own; the key and secret are written here, from
        ``self._credentials``, and held by no local or argument of this frame or of any it calls
        that can be in an error's traceback."""
        deadline = time.monotonic() + self.timeout

        def remaining() -> float:
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout("timed out")
            return left

        if self._scheme == "https":
            if self._ssl is None:
                self._ssl = ssl.create_default_context()  # a race makes two equal contexts: harmless
            conn: http.client.HTTPConnection = http.client.HTTPSConnection(self._host, self._port, timeout=self.timeout, context=self._ssl)
        else:
            conn = http.client.HTTPConnection(self._host, self._port, timeout=self.timeout)
        connected = False
        try:
            # Connect first: a refused connection, a DNS or a TLS failure is then raised before the
            # request's head, the secret in it, is put together.
            conn.connect()
            connected = True
            conn.putrequest(method, target)  # with Host and Accept-Encoding: identity, as conn.request
            conn.putheader("X-Api-Key", self._credentials.api_key)
            conn.putheader("X-Api-Secret", self._credentials.api_secret)
            for name, value in headers.items():
                conn.putheader(name, value)
            if payload is not None:
                conn.putheader("Content-Length", str(len(payload)))
            elif method in ("POST", "PUT", "PATCH"):
                conn.putheader("Content-Length", "0")
            try:
                conn.endheaders(payload)
            except BaseException as failure:
                # http.client's frames below this one hold the head it was writing, the secret with
                # it, in their locals: the error goes on without them.
                raise failure.with_traceback(None)
            sock = conn.sock  # kept: http.client lets go of it once the answer says Connection: close
            while_waiting = sock.settimeout if sock is not None else (lambda _: None)
            while_waiting(remaining())
            response = conn.getresponse()
            chunks = []
            while True:
                while_waiting(remaining())  # the timeout bounds the whole try, not each read
                chunk = response.read1(65536) if hasattr(response, "read1") else response.read(65536)
                if not chunk:
                    break
                chunks.append(chunk)
            answer_headers: Dict[str, str] = {}
            for name, value in response.getheaders():
                answer_headers.setdefault(name.lower(), value)
            return response.status, answer_headers, b"".join(chunks)
        except ssl.SSLCertVerificationError as cause:
            raise _NoAnswer("CONNECTION_FAILED", cause, retryable=False) from cause
        except (socket.timeout, TimeoutError) as cause:
            raise _NoAnswer("TIMEOUT", cause, connected=connected) from cause
        except (OSError, http.client.HTTPException) as cause:
            raise _NoAnswer("CONNECTION_FAILED", cause, connected=connected) from cause
        finally:
            conn.close()

    def _backoff(self, attempt: int) -> float:
        ceiling = min(self.max_retry_delay, self.initial_retry_delay * 2**attempt)
        return random.uniform(ceiling / 2, ceiling)

    def _retry_after(self, value: Optional[str], now: Optional[float] = None) -> Optional[float]:
        """Seconds to wait from a Retry-After header (seconds or an HTTP date), when within the cap."""
        if not value:
            return None
        value = value.strip()
        if re.fullmatch(r"[0-9]+", value):
            seconds: float = int(value)
        else:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError, IndexError):
                return None
            if when is None:
                return None
            if when.tzinfo is None:
                when = when.replace(tzinfo=timezone.utc)
            seconds = when.timestamp() - (time.time() if now is None else now)
        return seconds if 0 <= seconds <= self.max_retry_after else None


class _NoAnswer(Exception):
    def __init__(self, code: str, cause: BaseException, *, retryable: bool = True, connected: bool = False) -> None:
        super().__init__(code)
        self.code = code
        self.cause = cause
        self.retryable = retryable
        #: Whether the connection (TLS included) was made, so the request may have reached the API
        #: and done its work. False for a refused connection, a DNS failure or a connect timeout.
        self.connected = connected
        self.reason = str(cause) or type(cause).__name__

    def describe(self, timeout: float) -> str:
        return f"No answer within {timeout:g} s" if self.code == "TIMEOUT" else "Could not reach Cambio"


def _error_of(status: int, parsed: Any, raw: bytes, request_id: Optional[str]) -> CambioError:
    envelope_error = isinstance(parsed, dict) and parsed.get("success") is not True and isinstance(parsed.get("error"), dict)
    if envelope_error and status >= 300:
        return error_from_response(status, parsed, request_id)
    where = f", request {request_id}" if request_id else ""
    shape = "without a JSON body" if parsed is None else "without the API's envelope"
    if status == 429:
        # A CDN, WAF or proxy in front of the API throttling with its own body: still throttled, and retried.
        return RateLimitError(f"HTTP 429 {shape} (RATE_LIMITED{where})", code="RATE_LIMITED", status=status, request_id=request_id)
    if status >= 500:
        return ApiServerError(f"HTTP {status} {shape} (INTERNAL_ERROR{where})", code="INTERNAL_ERROR", status=status, request_id=request_id)
    if parsed is None:
        snippet = raw[:80].decode("utf-8", "replace")
        return InvalidResponseError(
            f"HTTP {status} without a JSON body (INVALID_RESPONSE{where}): {snippet!r}. Is base_url the Cambio API?",
            status=status,
            request_id=request_id,
        )
    return InvalidResponseError(f"HTTP {status} without the API's envelope (INVALID_RESPONSE{where})", status=status, request_id=request_id)


def _retryable(error: CambioError) -> bool:
    """429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running)."""
    return isinstance(error, (RateLimitError, ApiServerError)) or (isinstance(error, ConflictError) and error.code == "IDEMPOTENCY_KEY_IN_USE")


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw.decode("utf-8"), parse_float=Decimal)
    except (UnicodeDecodeError, ValueError):
        return None


# -- checks done before any request carries the key and secret --------------------------------


def _check_credential(name: str, value: Any) -> None:
    if value is None or value == "":
        raise ValueError(f"Cambio(api_key=..., api_secret=..., base_url=...) needs {name}: the API key and secret of your company")
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}")
    # Checked here, without echoing the value: http.client would put it in its error message.
    if not re.fullmatch(r"[\x21-\x7e]+", value):
        raise ValueError(f"{name} must be printable ASCII without spaces (check for a stray newline or quote around it)")


def _base_url_of(base_url: Any) -> str:
    """The base URL, given explicitly (no default host), http(s), and https unless it is loopback,
    so the credentials never cross the network in clear text."""
    if base_url is None or base_url == "":
        raise ValueError(f"Cambio(api_key=..., api_secret=..., base_url=...) needs base_url: {WHERE_THE_URL_IS}")
    if not isinstance(base_url, str):
        raise TypeError(f"base_url must be a str, got {type(base_url).__name__}: use {WHERE_THE_URL_IS}")
    try:
        parts = urlsplit(base_url.strip())
        port = parts.port
    except ValueError:
        raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}: use {WHERE_THE_URL_IS}") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}: use {WHERE_THE_URL_IS}")
    if parts.username is not None or parts.password is not None or parts.query or parts.fragment or "?" in base_url or "#" in base_url:
        raise ValueError(f"base_url must carry no credentials, query or fragment, got {_redacted(parts)}")
    host = parts.hostname.lower()
    if scheme == "http" and not _is_loopback(host):
        raise ValueError(
            f"base_url {scheme}://{parts.netloc} is plain http, which would send your API key and secret in clear text: "
            f"use https ({WHERE_THE_URL_IS}); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)"
        )
    netloc = f"[{host}]" if ":" in host else host
    if port is not None:
        netloc += f":{port}"
    # The routes carry /v1 themselves: accept a base URL given with or without it (ApiUrl has it).
    path = re.sub(r"/v1$", "", parts.path.rstrip("/")).rstrip("/")
    return f"{scheme}://{netloc}{path}"


def _redacted(parts: Any) -> str:
    host = parts.hostname or ""
    return f"{parts.scheme}://…@{host}…" if parts.username is not None else f"{parts.scheme}://{host}{parts.path}?…#…"


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback and (address.version == 6 or str(address) == host)


def _check_retries(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"max_retries must be an int ≥ 0, got {value!r}")
    return value


def _positive(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"{name} must be a number of seconds > 0, got {value!r}")
    return float(value)


def _non_negative(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0:
        raise ValueError(f"{name} must be a number of seconds ≥ 0, got {value!r}")
    return float(value)


def _check_idempotency_key(key: Any) -> str:
    if not isinstance(key, str) or not re.fullmatch(r"[\x20-\x7e]{1,255}", key):
        raise ValueError("idempotency_key must be 1–255 printable ASCII characters (e.g. a UUID, or one derived from your order id)")
    return key


# -- parameters ------------------------------------------------------------------------------


def _money(name: str, value: Any) -> str:
    """A decimal string as the API wants it; a Decimal or an int is written out exactly; never a float."""
    if isinstance(value, str):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"{name} must be a finite amount, got {value!r}")
        # Decimal arithmetic keeps trailing zeros (25.000000 × 0.5 = 12.5000000) and the API counts
        # them against its 6 decimal places: only the zeros go, the value is never rounded (as
        # normalize() would, at the context's precision).
        text = format(value, "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    raise TypeError(
        f"{name} must be a decimal string such as \"25.50\" (or a decimal.Decimal), got {type(value).__name__}: "
        "money is never a float"
    )


def _body(fields: RequestFields, values: Mapping[str, Any], money: Sequence[str] = ()) -> Dict[str, Any]:
    """The JSON body: each given keyword argument under the API's name (None = not sent)."""
    body: Dict[str, Any] = {}
    for attribute, _ in fields:
        value = values.get(attribute)
        if value is None:
            continue
        body[api_name(attribute)] = _money(attribute, value) if attribute in money else value
    return body


def _split(split: Any) -> Any:
    if split is None:
        return None
    if not isinstance(split, Mapping):
        raise TypeError('split must be a dict: {"address": "T…", "percent": 10} or {"address": "T…", "amount": "5"}')
    out = dict(split)
    if "amount" in out and out["amount"] is not None:
        out["amount"] = _money("split['amount']", out["amount"])
    percent = out.get("percent")
    if isinstance(percent, Decimal) and not percent.is_finite():
        raise ValueError(f"split['percent'] must be a finite number, got {percent!r}")
    return out  # a Decimal percent is written as a JSON number with its own digits (_json)


def _json(value: Any) -> str:
    """Compact JSON, as json.dumps(separators=(",", ":"), ensure_ascii=False) writes it, except that a
    Decimal (a split's percent) is a JSON number with exactly its digits, never rounded through a float."""
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise ValueError(f"a JSON number must be finite, got {value!r}")
        return format(value, "f")
    if isinstance(value, Mapping):
        return "{" + ",".join(json.dumps(str(k), ensure_ascii=False) + ":" + _json(v) for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_json(item) for item in value) + "]"
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _segment(id: Any) -> str:
    if not isinstance(id, str) or not id:
        raise ValueError("id must be a non-empty string")
    return quote(id, safe="")


class _Resource:
    #: The group's route (``/v1/deposits``): its records are at ``{_path}/{id}``.
    _path: str

    def __init__(self, client: Cambio) -> None:
        self._client = client

    def __repr__(self) -> str:
        return f"<{type(self).__name__} of {self._client!r}>"

    def _member(self, id: str) -> str:
        return f"{self._path}/{_segment(id)}"


class _Retrievable(_Resource, Generic[T]):
    """A group whose records are read by id (``get``)."""

    #: The record class the group's calls answer with.
    _record: Type[T]

    def get(self, id: str, *, max_retries: Optional[int] = None) -> T:
        """GET the group's record with this id (``/v1/deposits/{id}``, ...)."""
        return self._client._data("GET", self._member(id), self._record, max_retries=max_retries)


class _Listable(_Retrievable[T]):
    """A group whose records are also listed (``list``), newest first, a page at a time."""

    def list(self, *, limit: Optional[int] = None, cursor: Optional[str] = None, max_retries: Optional[int] = None) -> Page[T]:
        """GET the group's route: one page, newest first; ``.auto_paging_iter()`` walks them all."""
        return self._client._page(self._path, self._record, limit, cursor, max_retries)


class CompanyResource(_Resource):
    def get(self, *, max_retries: Optional[int] = None) -> Company:
        """GET /v1/company."""
        return self._client._data("GET", "/v1/company", Company, max_retries=max_retries)

    def balance(self, *, max_retries: Optional[int] = None) -> Balance:
        """GET /v1/company/balance: ``balances`` (USDT and BRL: ``available``, ``pending``, ``locked``)."""
        return self._client._data("GET", "/v1/company/balance", Balance, max_retries=max_retries)


class DepositsResource(_Retrievable[Deposit]):
    """POST /v1/deposits, GET /v1/deposits/{id}."""

    _path = "/v1/deposits"
    _record = Deposit

    def create(
        self,
        *,
        method: str,
        network: str,
        reference: str,
        amount: Optional[Money] = None,
        split: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Deposit:
        """POST /v1/deposits: a fresh address on ``network`` (tron, ethereum, bsc, polygon, arbitrum or solana) to pay ``amount`` (optional, informative) USDT to."""
        body = _body(CREATE_DEPOSIT_FIELDS, dict(method=method, network=network, reference=reference, amount=amount, split=_split(split)), money=("amount",))
        return self._client._data("POST", self._path, Deposit, body=body, idempotency_key=idempotency_key, max_retries=max_retries)


class WithdrawalsResource(_Retrievable[Withdrawal]):
    """POST /v1/withdrawals, GET /v1/withdrawals/{id}."""

    _path = "/v1/withdrawals"
    _record = Withdrawal

    def create(
        self,
        *,
        method: str,
        network: str,
        address: str,
        amount: Money,
        reference: str,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Withdrawal:
        """POST /v1/withdrawals: sends ``amount`` USDT to ``address`` on ``network`` (tron, ethereum, bsc, polygon, arbitrum or solana;
        an EIP-55 ``0x`` address on ethereum, bsc, polygon and arbitrum, a wallet's base58 address on solana).

        ``amount`` + fee move from available to locked, or RefusedError ``INSUFFICIENT_BALANCE``.
        """
        body = _body(CREATE_WITHDRAWAL_FIELDS, dict(method=method, network=network, address=address, amount=amount, reference=reference), money=("amount",))
        return self._client._data("POST", self._path, Withdrawal, body=body, idempotency_key=idempotency_key, max_retries=max_retries)


class ConversionsResource(_Listable[Conversion]):
    """POST /v1/conversions/quote, POST /v1/conversions, GET /v1/conversions, GET /v1/conversions/{id}."""

    _path = "/v1/conversions"
    _record = Conversion

    def quote(
        self,
        *,
        source_currency: str,
        settlement_currency: str,
        source_amount: Money,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Quote:
        """POST /v1/conversions/quote: a USDT → BRL quote, valid 30 s."""
        body = _body(
            CREATE_QUOTE_FIELDS,
            dict(source_currency=source_currency, settlement_currency=settlement_currency, source_amount=source_amount),
            money=("source_amount",),
        )
        return self._client._data("POST", "/v1/conversions/quote", Quote, body=body, idempotency_key=idempotency_key, max_retries=max_retries)

    def create(
        self,
        *,
        quote_id: str,
        reference: Optional[str] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> Conversion:
        """POST /v1/conversions: executes a quote."""
        body = _body(CREATE_CONVERSION_FIELDS, dict(quote_id=quote_id, reference=reference))
        return self._client._data("POST", self._path, Conversion, body=body, idempotency_key=idempotency_key, max_retries=max_retries)


class WebhooksResource(_Listable[Webhook]):
    """The five /v1/webhooks routes, and ``verify`` (local)."""

    _path = "/v1/webhooks"
    _record = Webhook

    def create(
        self,
        *,
        url: str,
        events: Sequence[str],
        description: Optional[str] = None,
        enabled: Optional[bool] = None,
        idempotency_key: Optional[str] = None,
        max_retries: Optional[int] = None,
    ) -> CreatedWebhook:
        """POST /v1/webhooks. The answer carries the signing ``secret``, shown only this once: store it."""
        body = _body(WEBHOOK_FIELDS, dict(url=url, events=_events(events), description=description, enabled=enabled))
        return self._client._data("POST", self._path, CreatedWebhook, body=body, idempotency_key=idempotency_key, max_retries=max_retries)

    def update(
        self,
        id: str,
        *,
        url: str,
        events: Sequence[str],
        description: Optional[str] = None,
        enabled: Optional[bool] = None,
        max_retries: Optional[int] = None,
    ) -> Webhook:
        """PUT /v1/webhooks/{id}: replaces the webhook (omitted optional fields take their defaults; the secret is kept)."""
        body = _body(WEBHOOK_FIELDS, dict(url=url, events=_events(events), description=description, enabled=enabled))
        return self._client._data("PUT", self._member(id), Webhook, body=body, max_retries=max_retries)

    def delete(self, id: str, *, max_retries: Optional[int] = None) -> DeletedWebhook:
        """DELETE /v1/webhooks/{id} → ``deleted`` is True.

        Retried like any call: when a retry is answered 404, the try whose answer was lost deleted the
        webhook, and the call returns ``DeletedWebhook(id=id, deleted=True)`` as a delete answered 200
        does. A 404 to the first try raises ``NotFoundError``."""
        return self._client._data(
            "DELETE", self._member(id), DeletedWebhook, max_retries=max_retries, gone_on_retry=lambda: {"id": id, "deleted": True}
        )

    #: Verifies a delivery (Standard Webhooks) over the RAW body and returns its event; raises
    #: WebhookVerificationError when it is forged, altered or stale. Local: no request is made.
    #: It is ``cambio.verify_webhook`` itself, so the two cannot drift apart.
    verify = staticmethod(verify_webhook)
    #: The first step of ``verify`` alone (``cambio.verify_webhook_signature``): raises
    #: WebhookVerificationError unless signed and fresh; the body is not read.
    verify_signature = staticmethod(verify_webhook_signature)


def _events(events: Any) -> List[str]:
    if isinstance(events, str) or not isinstance(events, (list, tuple)):
        raise TypeError('events must be a list of event types, e.g. ["deposit.completed"] or ["*"]')
    return list(events)
