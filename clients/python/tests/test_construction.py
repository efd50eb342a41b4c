"""Construction: the key, secret and base URL are required; the base URL is checked before any
request carries the credentials (https, or plain http on loopback only); the secret never shows."""

from __future__ import annotations

import logging
import pickle
import re
import threading
import time
from pathlib import Path

import pytest

import cambio
from conftest import KEY, SECRET, failure, free_port, ok

WHERE = re.compile(r"`ApiUrl` output of your Cambio stack.*`npm start` prints", re.S)


def refusal(**options) -> Exception:
    settings = {"api_key": KEY, "api_secret": SECRET}
    settings.update(options)
    with pytest.raises((ValueError, TypeError)) as caught:
        cambio.Cambio(**settings)
    assert SECRET not in str(caught.value)
    return caught.value


def test_the_base_url_is_required_and_the_error_says_where_it_comes_from():
    assert WHERE.search(str(refusal()))
    assert WHERE.search(str(refusal(base_url="")))
    assert WHERE.search(str(refusal(base_url=None)))


@pytest.mark.parametrize("missing", ["api_key", "api_secret"])
@pytest.mark.parametrize("value", [None, ""])
def test_the_api_key_and_secret_are_required(missing, value):
    error = refusal(base_url="https://example.com/v1", **{missing: value})
    assert isinstance(error, ValueError)
    assert f"needs {missing}" in str(error)


def test_a_credential_with_a_newline_or_a_space_is_refused_without_echoing_it():
    error = refusal(base_url="https://example.com/v1", api_secret="cs_abc\n")
    assert "cs_abc" not in str(error) and "printable ASCII" in str(error)
    error = refusal(base_url="https://example.com/v1", api_key="ck abc")
    assert "ck abc" not in str(error)


@pytest.mark.parametrize("base_url", ["sandbox", "api.example.com/v1", "ftp://127.0.0.1/v1", "file:///tmp/v1", "javascript:alert(1)", "https://", "http://127.0.0.1:99999/v1"])
def test_the_base_url_must_be_an_http_s_url(base_url):
    error = refusal(base_url=base_url)
    assert "must be an http(s) URL" in str(error)
    assert WHERE.search(str(error))


@pytest.mark.parametrize(
    "base_url",
    [
        "http://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1",
        "http://10.0.0.5:3000/v1",
        "http://192.168.1.10:3000",
        "http://localhost.example.com:3000",
        "http://127.0.0.1.nip.io:3000",
        "http://[::2]:3000",
        "http://0.0.0.0:3000",
    ],
)
def test_plain_http_is_refused_unless_loopback_so_credentials_never_cross_the_network_in_clear_text(base_url):
    assert re.search(r"plain http.*clear text.*loopback", str(refusal(base_url=base_url)), re.S)


@pytest.mark.parametrize(
    "given, kept",
    [
        ("https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1", "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox"),
        ("https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1/", "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox"),
        ("https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox", "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox"),
        ("https://api.example.com", "https://api.example.com"),
        ("http://127.0.0.1:3000/v1", "http://127.0.0.1:3000"),
        ("http://127.8.9.10:3000", "http://127.8.9.10:3000"),
        ("http://localhost:3000/v1", "http://localhost:3000"),
        ("HTTP://LOCALHOST:3000/v1/", "http://localhost:3000"),
        ("http://[::1]:3000/v1", "http://[::1]:3000"),
    ],
)
def test_https_anywhere_and_http_on_127_0_0_0_8_ipv6_loopback_and_localhost_with_or_without_v1(given, kept):
    assert cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url=given).base_url == kept


@pytest.mark.parametrize("base_url", ["https://user:pass@example.com/v1", "https://example.com/v1?stage=sandbox", "https://example.com/v1#x"])
def test_the_base_url_carries_no_credentials_query_or_fragment(base_url):
    error = refusal(base_url=base_url)
    assert "no credentials, query or fragment" in str(error)
    assert "user:pass" not in str(error) and "stage=sandbox" not in str(error)


@pytest.mark.parametrize("option, value", [("max_retries", -1), ("max_retries", 1.5), ("timeout", 0), ("timeout", "30"), ("max_retry_delay", -1)])
def test_options_are_checked(option, value):
    refusal(base_url="https://example.com", **{option: value})


def test_options_default_to_2_retries_and_30_s_per_try():
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url="https://example.com/v1")
    assert (client.max_retries, client.timeout, client.initial_retry_delay, client.max_retry_delay, client.max_retry_after) == (2, 30.0, 0.5, 5.0, 60.0)


def test_requests_go_under_the_base_urls_path_with_the_key_and_secret(scripted):
    server = scripted(lambda seen, n: ok({"balances": [], "updatedAt": "2026-01-15T12:00:00.000Z"}))
    client = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url=f"{server.url}/sandbox/v1")

    client.company.balance()
    client.deposits.get("dep_00000000000000000000000000")

    assert [(s.path, s.headers["host"], s.headers["x-api-key"], s.headers["x-api-secret"]) for s in server.seen] == [
        ("/sandbox/v1/company/balance", server.url[len("http://"):], KEY, SECRET),
        ("/sandbox/v1/deposits/dep_00000000000000000000000000", server.url[len("http://"):], KEY, SECRET),
    ]


def test_the_secret_never_appears_in_repr_str_vars_pickle_errors_or_logs(scripted, caplog):
    caplog.set_level(logging.DEBUG)
    server = scripted(lambda seen, n: failure(401, "AUTH_FAILED", "Authentication failed: invalid API key or secret"))
    client = server.client(max_retries=0)
    shown = [repr(client), str(client), repr(vars(client)), str(vars(client)), repr(client.deposits), repr(client.webhooks), repr(client.__dict__)]
    with pytest.raises(TypeError) as not_picklable:
        pickle.dumps(client)
    shown.append(str(not_picklable.value))
    with pytest.raises(cambio.AuthenticationError) as refused:
        client.company.get()
    shown += [str(refused.value), repr(refused.value), repr(refused.value.__dict__)]
    unreachable = cambio.Cambio(api_key=KEY, api_secret=SECRET, base_url=f"http://127.0.0.1:{free_port()}", max_retries=0)
    with pytest.raises(cambio.ConnectionError) as lost:
        unreachable.company.get()
    shown += [str(lost.value), repr(lost.value), repr(lost.value.__cause__), repr(unreachable)]
    shown += [record.getMessage() for record in caplog.records]
    for text in shown:
        assert SECRET not in text
    assert "Cambio(base_url=" in repr(client)


def test_the_version_is_the_clients_one_and_read_from_one_place():
    assert cambio.__version__ == (Path(__file__).resolve().parents[2] / "VERSION").read_text(encoding="utf-8").strip()
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert 'dynamic = ["version"]' in pyproject
    assert 'version = { attr = "cambio._version.__version__" }' in pyproject
    from cambio._client import USER_AGENT

    assert USER_AGENT.startswith(f"cambio-python/{cambio.__version__} python/")


def test_https_verifies_the_servers_certificate_and_a_failed_verification_is_not_retried(scripted, monkeypatch):
    server = scripted(lambda seen, n: ok({"id": "cmp_1"}), tls=True)
    untrusted = server.client(max_retries=3, initial_retry_delay=2.0, max_retry_delay=2.0)
    started = time.monotonic()
    with pytest.raises(cambio.ConnectionError) as caught:
        untrusted.company.get()
    assert caught.value.code == "CONNECTION_FAILED" and "CERTIFICATE_VERIFY_FAILED" in str(caught.value)
    assert time.monotonic() - started < 2.5 and server.seen == []  # a retry would have waited ≥ 1 s, three times  # a wrong certificate is not worth a retry

    from conftest import TLS_CERT

    monkeypatch.setenv("SSL_CERT_FILE", str(TLS_CERT))  # trust the test certificate (OpenSSL's default paths)
    trusting = server.client()
    assert trusting.company.get().id == "cmp_1"
    assert len(server.seen) == 1 and server.seen[0].headers["x-api-secret"] == SECRET


def test_one_client_is_shared_safely_between_threads(scripted):
    server = scripted(lambda seen, n: ok({**seen.json(), "id": f"dep_{n}"} if seen.body else {}, 201))
    client = server.client()
    results = {}

    def work(i: int) -> None:
        results[i] = client.deposits.create(method="usdt", network="tron", reference=f"order-{i}").reference

    threads = [threading.Thread(target=work, args=(i,)) for i in range(16)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert results == {i: f"order-{i}" for i in range(16)}
    assert len({s.headers["idempotency-key"] for s in server.seen}) == 16
