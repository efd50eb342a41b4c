"""Retries: connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE, 429 and 5xx are retried with
capped, jittered backoff (or after Retry-After); no other 4xx is. Every try of one POST carries
the same Idempotency-Key, so the API replays instead of withdrawing twice."""

from __future__ import annotations

import builtins
import email.utils
import re
import time

import pytest

import cambio
from conftest import DROP, ERRORS, HANG, KEY, SECRET, VALIDATION, WITHDRAWAL, WITHDRAWAL_PARAMS, Reply, failure, free_port, ok

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")


def test_503_then_201_one_withdrawal_with_the_same_idempotency_key_on_both_tries(scripted):
    server = scripted(lambda seen, n: failure(503, "INTERNAL_ERROR") if n == 1 else ok(WITHDRAWAL, 201))

    created = server.client().withdrawals.create(**WITHDRAWAL_PARAMS)

    assert created.id == WITHDRAWAL["id"] and created.amount == "5.000000"
    assert len(server.seen) == 2
    assert UUID4.match(server.seen[0].headers["idempotency-key"])
    assert server.seen[1].headers["idempotency-key"] == server.seen[0].headers["idempotency-key"]
    assert server.seen[0].body == server.seen[1].body


def test_a_dropped_connection_is_retried_with_the_same_key_and_a_new_call_gets_a_new_key(scripted):
    server = scripted(lambda seen, n: DROP if n == 1 else ok(WITHDRAWAL, 201))
    client = server.client()

    client.withdrawals.create(**WITHDRAWAL_PARAMS)
    first = [s.headers["idempotency-key"] for s in server.seen]
    client.withdrawals.create(**WITHDRAWAL_PARAMS)

    assert len(first) == 2 and first[0] == first[1]
    assert server.seen[-1].headers["idempotency-key"] != first[0]


def test_the_callers_idempotency_key_is_sent_on_every_try(scripted):
    server = scripted(lambda seen, n: failure(500, "INTERNAL_ERROR") if n < 3 else ok(WITHDRAWAL, 201))

    server.client().withdrawals.create(**WITHDRAWAL_PARAMS, idempotency_key="payout-1-attempt")

    assert [s.headers["idempotency-key"] for s in server.seen] == ["payout-1-attempt"] * 3


def test_409_idempotency_key_in_use_is_retried_with_the_same_key(scripted):
    server = scripted(lambda seen, n: failure(409, "IDEMPOTENCY_KEY_IN_USE") if n == 1 else ok(WITHDRAWAL, 201))

    assert server.client().withdrawals.create(**WITHDRAWAL_PARAMS).id == WITHDRAWAL["id"]
    assert len(server.seen) == 2
    assert server.seen[0].headers["idempotency-key"] == server.seen[1].headers["idempotency-key"]


def test_429_honours_retry_after_seconds(scripted):
    server = scripted(lambda seen, n: failure(429, "RATE_LIMITED", headers={"Retry-After": "1"}) if n == 1 else ok(WITHDRAWAL))

    server.client().withdrawals.get(WITHDRAWAL["id"])

    assert len(server.seen) == 2
    assert server.seen[1].at - server.seen[0].at >= 0.95


def test_retry_after_as_seconds_or_http_date_is_honoured_up_to_60_s_only():
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url="http://127.0.0.1:1")
    now = time.time()
    assert client._retry_after("2", now) == 2
    assert client._retry_after("0", now) == 0
    assert client._retry_after("60", now) == 60
    assert client._retry_after("61", now) is None  # beyond the cap: the usual backoff instead
    assert client._retry_after(email.utils.formatdate(now + 10, usegmt=True), now) == pytest.approx(10, abs=1)
    assert client._retry_after(email.utils.formatdate(now + 600, usegmt=True), now) is None
    assert client._retry_after(email.utils.formatdate(now - 10, usegmt=True), now) is None
    assert client._retry_after("soon", now) is None
    assert client._retry_after(None, now) is None


def test_backoff_is_half_to_all_of_0_5_s_times_2_to_the_n_capped_at_5_s():
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url="http://127.0.0.1:1")
    for attempt, ceiling in [(0, 0.5), (1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (10, 5.0)]:
        delays = [client._backoff(attempt) for _ in range(200)]
        assert all(ceiling / 2 <= d <= ceiling for d in delays), attempt
        assert max(delays) - min(delays) > ceiling / 10  # jittered, not fixed


def test_gives_up_after_max_retries_with_the_last_error_typed_and_backs_off_within_the_cap(scripted):
    server = scripted(lambda seen, n: failure(503, "PRICE_UNAVAILABLE", "No current USDT/BRL price"))
    client = server.client(max_retries=3, initial_retry_delay=0.02, max_retry_delay=0.04)

    with pytest.raises(cambio.ApiServerError) as caught:
        client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount="10")

    error = caught.value
    assert (error.code, error.status, error.request_id) == ("PRICE_UNAVAILABLE", 503, "req-4")
    assert len(server.seen) == 4
    waits = [b.at - a.at for a, b in zip(server.seen, server.seen[1:])]
    assert waits[0] >= 0.009
    assert all(wait < 0.04 + 1.0 for wait in waits)  # the cap, plus slack for a loaded machine
    assert len({s.headers["idempotency-key"] for s in server.seen}) == 1


def test_max_retries_per_call_overrides_the_clients(scripted):
    server = scripted(lambda seen, n: failure(503, "INTERNAL_ERROR"))
    with pytest.raises(cambio.ApiServerError):
        server.client(max_retries=5).company.get(max_retries=0)
    assert len(server.seen) == 1


@pytest.mark.parametrize(
    "code",
    ["VALIDATION_FAILED", "AUTH_FAILED", "NOT_FOUND", "DUPLICATE_REFERENCE", "QUOTE_ALREADY_USED", "INSUFFICIENT_BALANCE", "IDEMPOTENCY_KEY_REUSED"],
)
def test_other_4xx_are_not_retried(scripted, code):
    status, family = ERRORS[code]
    details = VALIDATION if code == "VALIDATION_FAILED" else None
    server = scripted(lambda seen, n: failure(status, code, details=details))

    with pytest.raises(family) as caught:
        server.client(max_retries=3).withdrawals.create(**WITHDRAWAL_PARAMS)

    assert (caught.value.code, caught.value.status, caught.value.details) == (code, status, details)
    assert len(server.seen) == 1


def test_a_429_that_persists_surfaces_as_rate_limit_error_after_the_retries(scripted):
    server = scripted(lambda seen, n: failure(429, "RATE_LIMITED"))
    with pytest.raises(cambio.RateLimitError) as caught:
        server.client(max_retries=2).company.get()
    assert caught.value.code == "RATE_LIMITED" and caught.value.status == 429
    assert len(server.seen) == 3


def test_a_non_json_5xx_is_an_api_server_error_and_is_retried(scripted):
    server = scripted(lambda seen, n: Reply(502, "<html>Bad Gateway</html>", {"Content-Type": "text/html"}) if n == 1 else ok(WITHDRAWAL))
    assert server.client().withdrawals.get(WITHDRAWAL["id"]).id == WITHDRAWAL["id"]
    assert len(server.seen) == 2

    always = scripted(lambda seen, n: Reply(502, "<html>Bad Gateway</html>", {"Content-Type": "text/html"}))
    with pytest.raises(cambio.ApiServerError) as caught:
        always.client(max_retries=1).company.get()
    assert (caught.value.code, caught.value.status) == ("INTERNAL_ERROR", 502)


@pytest.mark.parametrize(
    "throttled",
    [
        Reply(429, "Too Many Requests", {"Content-Type": "text/plain", "Retry-After": "1"}),
        Reply(429, {"message": "Too Many Requests"}, {"Retry-After": "1"}),
    ],
)
def test_a_429_without_the_envelope_from_a_cdn_or_proxy_is_a_rate_limit_error_retried_after_retry_after(scripted, throttled):
    server = scripted(lambda seen, n: throttled if n == 1 else ok(WITHDRAWAL))
    assert server.client().withdrawals.get(WITHDRAWAL["id"]).id == WITHDRAWAL["id"]
    assert len(server.seen) == 2
    assert server.seen[1].at - server.seen[0].at >= 0.95

    always = scripted(lambda seen, n: Reply(429, throttled.body))
    with pytest.raises(cambio.RateLimitError) as caught:
        always.client(max_retries=2).company.get()
    assert (caught.value.code, caught.value.status, caught.value.request_id) == ("RATE_LIMITED", 429, "req-3")
    assert len(always.seen) == 3


HOOK_ID = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5"


@pytest.mark.parametrize("lost", [DROP, failure(503, "INTERNAL_ERROR")], ids=["dropped", "503"])
def test_a_delete_retried_after_its_answer_was_lost_and_answered_404_is_the_webhook_deleted(scripted, lost):
    server = scripted(lambda seen, n: lost if n == 1 else failure(404, "NOT_FOUND", "Webhook not found"))

    deleted = server.client().webhooks.delete(HOOK_ID)

    assert isinstance(deleted, cambio.DeletedWebhook)
    assert (deleted.id, deleted.deleted) == (HOOK_ID, True)
    assert [s.method for s in server.seen] == ["DELETE", "DELETE"]


def test_a_404_to_the_first_try_of_a_delete_or_to_a_retried_get_is_still_not_found(scripted):
    server = scripted(lambda seen, n: DROP if n == 1 else failure(404, "NOT_FOUND"))
    client = server.client()
    with pytest.raises(cambio.NotFoundError):
        client.webhooks.get(HOOK_ID)
    with pytest.raises(cambio.NotFoundError) as caught:
        client.webhooks.delete(HOOK_ID)
    assert (caught.value.code, caught.value.status) == ("NOT_FOUND", 404)
    assert [s.method for s in server.seen] == ["GET", "GET", "DELETE"]


def test_a_404_after_a_429_to_a_delete_is_not_found_as_a_429_did_nothing(scripted):
    limited = failure(429, "RATE_LIMITED", headers={"Retry-After": "0"})
    server = scripted(lambda seen, n: limited if n == 1 else failure(404, "NOT_FOUND", "Webhook not found"))
    with pytest.raises(cambio.NotFoundError) as caught:
        server.client().webhooks.delete(HOOK_ID)
    assert (caught.value.code, caught.value.status, caught.value.request_id) == ("NOT_FOUND", 404, "req-2")
    assert [s.method for s in server.seen] == ["DELETE", "DELETE"]

    # A lost answer before the 429 may still have done the work: the 404 at the end is the deletion.
    lost_first = scripted(lambda seen, n: {1: DROP, 2: limited}.get(n) or failure(404, "NOT_FOUND", "Webhook not found"))
    deleted = lost_first.client().webhooks.delete(HOOK_ID)
    assert (deleted.id, deleted.deleted) == (HOOK_ID, True)
    assert len(lost_first.seen) == 3


def test_a_404_to_a_delete_retried_after_a_refused_connection_is_not_found_as_the_first_try_sent_nothing(scripted, monkeypatch):
    # The port refuses the first try; the API starts listening on it during the backoff and knows
    # no such webhook: the delete never happened, so it is not reported done.
    port = free_port()
    real_sleep = time.sleep
    started: list = []

    def backoff(seconds: float) -> None:
        if not started:
            started.append(scripted(lambda seen, n: failure(404, "NOT_FOUND", "Webhook not found"), port=port))
        real_sleep(seconds)

    monkeypatch.setattr(time, "sleep", backoff)
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url=f"http://127.0.0.1:{port}", initial_retry_delay=0.05, max_retry_delay=0.05)

    with pytest.raises(cambio.NotFoundError) as caught:
        client.webhooks.delete("whk_typo")

    assert (caught.value.code, caught.value.status) == ("NOT_FOUND", 404)
    assert [(s.method, s.path) for s in started[0].seen] == [("DELETE", "/v1/webhooks/whk_typo")]  # the retry alone reached it


def test_connection_refused_is_a_connection_error_after_the_retries():
    port = free_port()
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url=f"http://127.0.0.1:{port}", max_retries=2, initial_retry_delay=0.05, max_retry_delay=0.05)

    started = time.monotonic()
    with pytest.raises(cambio.ConnectionError) as caught:
        client.company.get()

    error = caught.value
    assert (error.code, error.status, error.request_id) == ("CONNECTION_FAILED", None, None)
    assert isinstance(error, cambio.CambioError)
    assert isinstance(error, builtins.ConnectionError)  # `except ConnectionError:` catches it too
    assert time.monotonic() - started >= 0.05  # two backoffs of 25–50 ms: it did retry
    assert f"127.0.0.1:{port}" in str(error)


def test_a_try_that_never_answers_times_out_and_is_retried(scripted):
    server = scripted(lambda seen, n: HANG)
    client = server.client(max_retries=1, timeout=0.3)

    started = time.monotonic()
    with pytest.raises(cambio.ConnectionError) as caught:
        client.company.get()

    assert caught.value.code == "TIMEOUT"
    assert len(server.seen) == 2
    assert 0.55 <= time.monotonic() - started < 3


def test_a_404_to_a_delete_retried_after_a_try_that_timed_out_once_connected_is_the_webhook_deleted(scripted):
    # Connected and sent, then no answer in time: that try may have deleted it.
    server = scripted(lambda seen, n: HANG if n == 1 else failure(404, "NOT_FOUND", "Webhook not found"))

    deleted = server.client(timeout=0.3).webhooks.delete(HOOK_ID)

    assert (deleted.id, deleted.deleted) == (HOOK_ID, True)
    assert len(server.seen) == 2


def test_get_put_and_delete_carry_no_idempotency_key_and_every_request_has_the_user_agent(scripted):
    server = scripted(lambda seen, n: ok({"id": "whk_x", "deleted": True}))
    client = server.client()
    client.webhooks.delete("whk_x")
    client.company.get()
    assert all("idempotency-key" not in s.headers for s in server.seen)
    assert all(re.fullmatch(rf"cambio-python/{re.escape(cambio.__version__)} python/\d+\.\d+\.\d+\S*", s.headers["user-agent"]) for s in server.seen)


def test_the_timeout_bounds_the_whole_try_even_when_the_answer_trickles_in(scripted):
    body = b'{"success":true,"data":{"id":"cmp_1","name":"Acme"}}'  # 13 pieces, 0.15 s apart: 1.8 s in all
    server = scripted(lambda seen, n: Reply(200, body, trickle=0.15))

    started = time.monotonic()
    with pytest.raises(cambio.ConnectionError) as caught:
        server.client(timeout=0.5, max_retries=0).company.get()  # each read is quick, the whole try is not
    assert caught.value.code == "TIMEOUT"
    assert time.monotonic() - started < 1.5
