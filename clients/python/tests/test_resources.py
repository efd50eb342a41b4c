"""Every call: its route, the JSON body with the API's camelCase names from snake_case keyword
arguments, money as decimal strings (never floats), and records with snake_case attributes."""

from __future__ import annotations

import inspect
from decimal import Decimal

import pytest

import cambio
from cambio import _types
from conftest import BALANCE, COMPANY, DEPOSIT, QUOTE, WEBHOOK, WITHDRAWAL, conversion, ok

def serve(scripted, data, status=200):
    return scripted(lambda seen, n: ok(data, status))


def test_deposits_create_sends_the_api_names_and_reads_snake_case_attributes(scripted):
    server = serve(scripted, DEPOSIT, 201)
    d = server.client().deposits.create(method="usdt", network="tron", reference="order-1", amount=Decimal("25.50"), split={"address": "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "percent": Decimal("4.5")})

    seen = server.seen[0]
    assert (seen.method, seen.path, seen.headers["content-type"]) == ("POST", "/v1/deposits", "application/json")
    assert seen.body == b'{"method":"usdt","reference":"order-1","network":"tron","amount":"25.5","split":{"address":"TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK","percent":4.5}}'
    assert isinstance(d, cambio.Deposit)
    assert (d.id, d.address, d.status, d.hold_reason, d.received_amount, d.credited_amount, d.amount_status) == (DEPOSIT["id"], DEPOSIT["address"], "completed", None, "25.000000", "24.000000", "exact")
    assert d.transactions[0].tx_hash == "ab12" and d.transactions[0].block_number == 7
    assert isinstance(d.split, cambio.DepositSplit) and d.split.percent == Decimal("4.5") and d.split.forwarded_amount == "1.000000"
    assert not hasattr(d, "a_field_from_a_newer_api")  # a newer API's fields never break this client
    with pytest.raises(AttributeError):
        d.status = "expired"  # records are frozen
    assert d.to_dict() == {k: v for k, v in DEPOSIT.items() if k != "aFieldFromANewerApi"} | {"split": {**DEPOSIT["split"], "percent": Decimal("4.5")}}


@pytest.mark.parametrize(
    "percent, sent",
    [
        (Decimal("12.34"), b"12.34"),
        (Decimal("10.50"), b"10.50"),
        (Decimal("1E+1"), b"10"),
        # Not two decimals: sent as given, for the API to refuse, never rounded by a float into one it takes.
        (Decimal("0.1000000000000000055511151231257827"), b"0.1000000000000000055511151231257827"),
        (Decimal("33.333333333333333333"), b"33.333333333333333333"),
    ],
)
def test_a_decimal_split_percent_is_sent_exactly_as_a_json_number_never_through_a_float(scripted, percent, sent):
    server = serve(scripted, DEPOSIT, 201)
    split = {"address": "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "percent": percent}
    server.client().deposits.create(method="usdt", network="tron", reference="order-1", amount="25", split=split)
    assert server.seen[0].body.endswith(b'"split":{"address":"TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK","percent":' + sent + b"}}")
    assert split["percent"] is percent  # the caller's dict is left as it was


def test_a_non_finite_decimal_split_percent_is_refused_before_sending(scripted):
    server = serve(scripted, DEPOSIT, 201)
    for percent in (Decimal("NaN"), Decimal("Infinity")):
        with pytest.raises(ValueError, match="percent"):
            server.client().deposits.create(method="usdt", network="tron", reference="order-1", amount="25", split={"address": "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "percent": percent})
    assert server.seen == []


def test_deposits_get_quotes_the_id_into_the_path(scripted):
    server = serve(scripted, DEPOSIT)
    server.client().deposits.get("dep_1/../x")
    assert (server.seen[0].method, server.seen[0].path) == ("GET", "/v1/deposits/dep_1%2F..%2Fx")
    with pytest.raises(ValueError):
        server.client().deposits.get("")


def test_withdrawals_create_and_get(scripted):
    server = serve(scripted, WITHDRAWAL, 201)
    client = server.client()
    w = client.withdrawals.create(method="usdt", network="tron", address=WITHDRAWAL["address"], amount=5, reference="payout-1")
    assert server.seen[0].json() == {"method": "usdt", "network": "tron", "address": WITHDRAWAL["address"], "amount": "5", "reference": "payout-1"}
    assert (w.fee, w.tx_hash, w.delivered_amount, w.network_cost, w.failure_reason, w.completed_at) == ("1.000000", None, None, None, None, None)
    client.withdrawals.get(WITHDRAWAL["id"])
    assert (server.seen[1].method, server.seen[1].path) == ("GET", f"/v1/withdrawals/{WITHDRAWAL['id']}")


#: A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58).
SOLANA_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
SOLANA_SIGNATURE = "4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ"


def test_a_withdrawal_on_solana_is_sent_naming_it_and_its_record_reads_back(scripted):
    network_cost = {"asset": "SOL", "amount": "0.002044280", "tokenAccountCreated": True}
    completed = WITHDRAWAL | {"network": "solana", "address": SOLANA_WALLET, "status": "completed", "txHash": SOLANA_SIGNATURE, "deliveredAmount": "5.000000", "networkCost": network_cost, "completedAt": "2026-01-15T12:00:05.000Z"}
    server = serve(scripted, completed, 201)
    w = server.client().withdrawals.create(method="usdt", network="solana", address=SOLANA_WALLET, amount="5", reference="payout-1")
    assert server.seen[0].json() == {"method": "usdt", "network": "solana", "address": SOLANA_WALLET, "amount": "5", "reference": "payout-1"}
    assert isinstance(w, cambio.Withdrawal)
    assert (w.network, w.address, w.tx_hash, w.delivered_amount) == ("solana", SOLANA_WALLET, SOLANA_SIGNATURE, "5.000000")
    # What the payout cost Cambio in SOL: a decimal string, kept exact as the API wrote it.
    assert w.network_cost == cambio.WithdrawalNetworkCost(asset="SOL", amount="0.002044280", token_account_created=True)
    assert w.to_dict()["networkCost"] == network_cost


def test_a_deposit_on_solana_reads_back(scripted):
    server = serve(scripted, DEPOSIT | {"network": "solana", "address": SOLANA_WALLET, "requiredConfirmations": 32}, 201)
    d = server.client().deposits.create(method="usdt", network="solana", reference="order-1")
    assert server.seen[0].json() == {"method": "usdt", "network": "solana", "reference": "order-1"}
    assert (d.network, d.address, d.required_confirmations) == ("solana", SOLANA_WALLET, 32)


def test_money_is_never_a_float(scripted):
    server = serve(scripted, QUOTE)
    client = server.client()
    for amount in (10.5, float("nan"), True):
        with pytest.raises(TypeError, match="never a float|decimal string"):
            client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount=amount)
    with pytest.raises(ValueError):
        client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount=Decimal("NaN"))
    assert server.seen == []
    q = client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount=Decimal("10.500000"))
    assert server.seen[0].json() == {"sourceCurrency": "USDT", "settlementCurrency": "BRL", "sourceAmount": "10.5"}
    assert (q.source_amount, q.settlement_amount, q.rate) == ("10.500000", "56.70", "5.40000000")
    assert isinstance(q.settlement_amount, str)


@pytest.mark.parametrize(
    "amount, sent",
    [
        (Decimal("25.000000") * Decimal("0.5"), "12.5"),  # Decimal("12.5000000"): 7 places, which the API refuses
        (Decimal("12.500000"), "12.5"),
        (Decimal("10.000"), "10"),
        (Decimal("100"), "100"),
        (Decimal("1E+2"), "100"),
        (Decimal("0.000001"), "0.000001"),
        # Only zeros go: a value with more places than the API takes is sent whole, for it to refuse, never rounded.
        (Decimal("1.00000010"), "1.0000001"),
        (Decimal("0.1000000000000000055511151231257827"), "0.1000000000000000055511151231257827"),
    ],
)
def test_a_decimal_amount_is_sent_without_the_trailing_zeros_of_its_fraction(scripted, amount, sent):
    server = serve(scripted, WITHDRAWAL, 201)
    server.client().withdrawals.create(method="usdt", network="tron", address=WITHDRAWAL["address"], amount=amount, reference="payout-2")
    assert server.seen[0].json()["amount"] == sent


def test_conversions_quote_create_get(scripted):
    server = scripted(lambda seen, n: ok(QUOTE if n == 1 else conversion(1), 201))
    client = server.client()
    q = client.conversions.quote(source_currency="USDT", settlement_currency="BRL", source_amount="10.5")
    c = client.conversions.create(quote_id=q.id, reference="convert-1")
    client.conversions.get(c.id)
    assert [(s.method, s.path) for s in server.seen] == [("POST", "/v1/conversions/quote"), ("POST", "/v1/conversions"), ("GET", f"/v1/conversions/{c.id}")]
    assert server.seen[1].json() == {"quoteId": q.id, "reference": "convert-1"}
    assert (c.quote_id, c.status, c.settlement_amount) == (conversion(1)["quoteId"], "completed", "54.00")


def test_company_get_and_balance(scripted):
    server = scripted(lambda seen, n: ok(COMPANY if seen.path == "/v1/company" else BALANCE))
    client = server.client()
    company = client.company.get()
    balance = client.company.balance()
    assert (company.id, company.environment, company.created_at) == (COMPANY["id"], "sandbox", COMPANY["createdAt"])
    assert [(b.currency, b.available, b.pending, b.locked) for b in balance.balances] == [("USDT", "14.000000", "0.000000", "6.000000"), ("BRL", "54.00", "0.00", "0.00")]
    assert isinstance(balance.balances[0], cambio.CurrencyBalance)
    assert isinstance(company.rate_limit, cambio.RateLimit)
    assert (company.rate_limit.tier, company.rate_limit.requests_per_second, company.rate_limit.burst) == ("growth", 50, 100)


def test_company_rate_limit_tier_beyond_todays_is_kept(scripted):
    # Tiers are open: one added after this client was released still reads, as its string.
    rate_limit = {"tier": "enterprise", "requestsPerSecond": 500, "burst": 1000}
    server = scripted(lambda seen, n: ok({**COMPANY, "rateLimit": rate_limit}))
    company = server.client().company.get()
    assert company.rate_limit == cambio.RateLimit(tier="enterprise", requests_per_second=500, burst=1000)
    assert company.to_dict()["rateLimit"] == rate_limit


def test_webhooks_create_get_update_delete_list(scripted):
    def answer(seen, n):
        if seen.method == "POST":
            return ok({**WEBHOOK, "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"}, 201)
        if seen.method == "DELETE":
            return ok({"id": WEBHOOK["id"], "deleted": True})
        if seen.path.startswith("/v1/webhooks?") or seen.path == "/v1/webhooks":
            return ok([WEBHOOK], pagination={"nextCursor": None})
        return ok({**WEBHOOK, "events": ["deposit.completed"], "description": "orders"})

    server = scripted(answer)
    hooks = server.client().webhooks
    created = hooks.create(url="https://example.com/hooks", events=["*"])
    updated = hooks.update(created.id, url="https://example.com/hooks", events=["deposit.completed"], description="orders", enabled=True)
    got = hooks.get(created.id)
    page = hooks.list()
    deleted = hooks.delete(created.id)

    assert isinstance(created, cambio.CreatedWebhook) and created.secret.startswith("whsec_")
    assert (updated.events, updated.description, got.enabled) == (["deposit.completed"], "orders", True)
    assert [w.id for w in page.data] == [WEBHOOK["id"]] and page.next_cursor is None
    assert (deleted.id, deleted.deleted) == (WEBHOOK["id"], True)
    assert [(s.method, s.path) for s in server.seen] == [
        ("POST", "/v1/webhooks"), ("PUT", f"/v1/webhooks/{WEBHOOK['id']}"), ("GET", f"/v1/webhooks/{WEBHOOK['id']}"), ("GET", "/v1/webhooks"), ("DELETE", f"/v1/webhooks/{WEBHOOK['id']}"),
    ]
    assert server.seen[0].json() == {"url": "https://example.com/hooks", "events": ["*"]}
    assert server.seen[1].json() == {"url": "https://example.com/hooks", "events": ["deposit.completed"], "description": "orders", "enabled": True}
    assert "idempotency-key" in server.seen[0].headers and "idempotency-key" not in server.seen[1].headers
    with pytest.raises(TypeError):
        hooks.create(url="https://example.com/hooks", events="*")


def test_a_created_webhooks_secret_is_hidden_from_repr_and_str_yet_readable(scripted, caplog):
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    server = scripted(lambda seen, n: ok({**WEBHOOK, "secret": secret}, 201))

    created = server.client().webhooks.create(url="https://example.com/hooks", events=["*"])

    for shown in (repr(created), str(created), f"{created}", f"{created!r}", repr([created]), repr({"hook": created})):
        assert secret not in shown and "MfKQ9r8" not in shown
    assert repr(created).startswith(f"CreatedWebhook(id={WEBHOOK['id']!r}, url='https://example.com/hooks', ")
    assert repr(created).endswith(", secret=[hidden])")
    import logging

    logging.getLogger("test").warning("created %s", created)
    assert secret not in caplog.text
    assert created.secret == secret
    assert created.to_dict()["secret"] == secret
    # A Webhook without a secret keeps the dataclass's own repr.
    assert repr(cambio.Webhook._from_api(WEBHOOK)).startswith(f"Webhook(id={WEBHOOK['id']!r}")


@pytest.mark.parametrize(
    "call, fields",
    [
        ("deposits.create", _types.CREATE_DEPOSIT_FIELDS),
        ("withdrawals.create", _types.CREATE_WITHDRAWAL_FIELDS),
        ("conversions.quote", _types.CREATE_QUOTE_FIELDS),
        ("conversions.create", _types.CREATE_CONVERSION_FIELDS),
        ("webhooks.create", _types.WEBHOOK_FIELDS),
        ("webhooks.update", _types.WEBHOOK_FIELDS),
    ],
)
def test_each_calls_keyword_arguments_are_its_request_schemas_fields_in_snake_case(call, fields):
    group, name = call.split(".")
    client = cambio.Cambio(api_key="k", api_secret="s", base_url="https://example.com")
    parameters = inspect.signature(getattr(getattr(client, group), name)).parameters
    keywords = {p for p, spec in parameters.items() if spec.kind is inspect.Parameter.KEYWORD_ONLY} - {"idempotency_key", "max_retries"}
    assert keywords == {attribute for attribute, _ in fields}
    for attribute, required in fields:
        assert (parameters[attribute].default is inspect.Parameter.empty) == required, attribute
    assert ("idempotency_key" in parameters) == (name != "update")
