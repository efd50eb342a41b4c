"""Errors: one base, CambioError, with code, status, request_id and details; the family by status
as the Node client's errorFromResponse; an answer that is not the API's envelope becomes an
InvalidResponseError (or, for a 5xx, an ApiServerError), never a crash."""

from __future__ import annotations

import http.client
import pickle
import traceback

import pytest

import cambio
from conftest import DROP, ERRORS, SECRET, VALIDATION, WITHDRAWAL_PARAMS, Reply, failure, free_port, ok


@pytest.mark.parametrize(
    "code",
    [
        "VALIDATION_FAILED", "INVALID_JSON", "FORBIDDEN", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE", "AUTH_FAILED",
        "NOT_FOUND", "DUPLICATE_REFERENCE", "INSUFFICIENT_BALANCE", "RATE_LIMITED", "INTERNAL_ERROR", "PRICE_UNAVAILABLE",
        "NETWORK_UNAVAILABLE", "SCREENING_UNAVAILABLE",
    ],
)
def test_each_status_maps_to_its_family_with_code_status_request_id_and_details(scripted, code):
    status, family = ERRORS[code]
    details = VALIDATION if code == "VALIDATION_FAILED" else ({"existingId": "dep_1"} if code == "DUPLICATE_REFERENCE" else None)
    server = scripted(lambda seen, n: failure(status, code, f"the {code} message", details))

    with pytest.raises(cambio.CambioError) as caught:
        server.client(max_retries=0).deposits.create(method="usdt", network="tron", reference="order-1")

    error = caught.value
    assert type(error) is family
    assert (error.code, error.status, error.request_id, error.details) == (code, status, "req-1", details)
    assert str(error) == f"the {code} message ({code}, request req-1)"


def test_families_are_distinct_subclasses_of_cambio_error():
    families = [
        cambio.InvalidRequestError, cambio.AuthenticationError, cambio.NotFoundError, cambio.ConflictError, cambio.RefusedError,
        cambio.RateLimitError, cambio.ApiServerError, cambio.ConnectionError, cambio.WebhookVerificationError, cambio.InvalidResponseError,
    ]
    assert all(issubclass(family, cambio.CambioError) for family in families)
    assert len(set(families)) == 10
    assert issubclass(cambio.ConnectionError, ConnectionError) and cambio.ConnectionError is not ConnectionError
    assert "ConnectionError" not in cambio.__all__  # a star import keeps Python's own ConnectionError
    assert cambio.WebhookVerificationError("x").code == "WEBHOOK_VERIFICATION_FAILED"


@pytest.mark.parametrize(
    "reply, status",
    [
        (Reply(200, "<html>hello</html>", {"Content-Type": "text/html"}), 200),
        (Reply(200, ""), 200),
        (Reply(200, {"id": "cmp_1"}), 200),
        (Reply(200, {"success": False}), 200),
        (Reply(200, [1, 2]), 200),
        (Reply(404, "<html>Not Found</html>", {"Content-Type": "text/html"}), 404),
        (Reply(400, {"message": "Bad Request"}), 400),
        (Reply(301, "", {"Location": "https://elsewhere.example.com/"}), 301),
    ],
)
def test_an_answer_that_is_not_the_envelope_is_an_invalid_response_error(scripted, reply, status):
    server = scripted(lambda seen, n: reply)
    with pytest.raises(cambio.InvalidResponseError) as caught:
        server.client().company.get()
    error = caught.value
    assert isinstance(error, cambio.CambioError)
    assert (error.code, error.status, error.request_id) == ("INVALID_RESPONSE", status, "req-1")
    assert len(server.seen) == 1  # not retried


def test_an_envelope_whose_data_has_the_wrong_shape_is_an_invalid_response_error(scripted):
    server = scripted(lambda seen, n: ok(["not", "an", "object"]))
    with pytest.raises(cambio.InvalidResponseError):
        server.client().company.get()
    listed = scripted(lambda seen, n: ok({"not": "a list"}, pagination={"nextCursor": None}))
    with pytest.raises(cambio.InvalidResponseError):
        listed.client().conversions.list()


def test_an_error_survives_pickling_with_every_field():
    error = cambio.RefusedError("no (INSUFFICIENT_BALANCE)", code="INSUFFICIENT_BALANCE", status=422, request_id="req-9", details={"a": 1})
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is cambio.RefusedError
    assert (copy.code, copy.status, copy.request_id, copy.details, str(copy)) == ("INSUFFICIENT_BALANCE", 422, "req-9", {"a": 1}, "no (INSUFFICIENT_BALANCE)")


def _with_locals(error: BaseException) -> str:
    """The error as Sentry, `pytest -l` or Django's debug page show it: every frame's locals, of the
    error and of each exception it was raised from or while handling."""
    shown, seen, pending = [], set(), [error]
    while pending:
        current = pending.pop()
        if current is None or id(current) in seen:
            continue
        seen.add(id(current))
        shown.append("".join(traceback.TracebackException.from_exception(current, capture_locals=True).format()))
        pending += [current.__cause__, current.__context__]
    return "\n".join(shown)


@pytest.mark.parametrize("answer", ["422", "dropped", "refused", "broken pipe"])
def test_no_frame_of_a_raised_error_holds_the_secret_in_a_local(scripted, monkeypatch, answer):
    if answer == "broken pipe":  # the connection lost while the request's head is being written

        def send(self, data):
            raise BrokenPipeError(32, "Broken pipe")

        monkeypatch.setattr(http.client.HTTPConnection, "send", send)
    if answer == "refused":
        client = cambio.Cambio(api_key="ck_test_key", api_secret=SECRET, base_url=f"http://127.0.0.1:{free_port()}", max_retries=1, initial_retry_delay=0.005, max_retry_delay=0.005)
    else:
        server = scripted(lambda seen, n: failure(422, "INSUFFICIENT_BALANCE") if answer == "422" else DROP)
        client = server.client(max_retries=1)
    with pytest.raises(cambio.CambioError) as caught:
        client.withdrawals.create(**WITHDRAWAL_PARAMS)
    shown = _with_locals(caught.value)
    assert "Traceback" in shown and "_request" in shown  # the locals were captured, frame by frame
    if answer != "422":
        assert "_send" in shown and caught.value.__cause__ is not None
    assert SECRET not in shown
