# frozen_string_literal: true

require_relative "test_helper"
require "bigdecimal"

# Every call's route, its keyword arguments mapped to the API's camelCase names (checked against
# openapi.json's request schemas before any request), money as decimal strings, and the records
# that come back.
class RequestsTest < Minitest::Test
  include CambioTest::Scripted
  include CambioTest

  DEPOSIT = {
    "id" => "dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "method" => "usdt", "reference" => "order-1", "network" => "tron",
    "address" => "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "amount" => "25.000000", "receivedAmount" => "0.000000",
    "creditedAmount" => "0.000000", "amountStatus" => nil, "status" => "awaiting_payment", "holdReason" => nil, "confirmations" => 0,
    "requiredConfirmations" => 19, "transactions" => [{ "txHash" => "ab12", "amount" => "1.000000", "blockNumber" => 7,
                                                         "confirmations" => 2, "status" => "confirming" }],
    "split" => nil, "expiresAt" => "2026-01-16T12:00:00.000Z", "createdAt" => "2026-01-15T12:00:00.000Z",
    "updatedAt" => "2026-01-15T12:00:00.000Z"
  }.freeze

  def body_of(request)
    JSON.parse(request.body)
  end

  def echo
    serve do |request, _n|
      data = request.method == "DELETE" ? { "id" => "whk_1", "deleted" => true } : { "id" => "x_1", "echo" => request.body }
      ok(data)
    end
  end

  def test_every_call_goes_to_its_route
    echo
    cambio = client
    calls = {
      "GET /v1/company" => -> { cambio.company.get },
      "GET /v1/company/balance" => -> { cambio.company.balance },
      "POST /v1/deposits" => -> { cambio.deposits.create(method: "usdt", network: "tron", reference: "r") },
      "GET /v1/deposits/dep_1" => -> { cambio.deposits.get("dep_1") },
      "POST /v1/withdrawals" => -> { cambio.withdrawals.create(**WITHDRAWAL_PARAMS) },
      "GET /v1/withdrawals/wdr_1" => -> { cambio.withdrawals.get("wdr_1") },
      "POST /v1/conversions/quote" => -> { cambio.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "1") },
      "POST /v1/conversions" => -> { cambio.conversions.create(quote_id: "qte_1") },
      "GET /v1/conversions/cnv_1" => -> { cambio.conversions.get("cnv_1") },
      "POST /v1/webhooks" => -> { cambio.webhooks.create(url: "https://example.com/h", events: ["*"]) },
      "GET /v1/webhooks/whk_1" => -> { cambio.webhooks.get("whk_1") },
      "PUT /v1/webhooks/whk_1" => -> { cambio.webhooks.update("whk_1", url: "https://example.com/h", events: ["*"]) },
      "DELETE /v1/webhooks/whk_1" => -> { cambio.webhooks.delete("whk_1") },
    }
    calls.each_value(&:call)
    assert_equal calls.keys, @server.requests.map { |r| "#{r.method} #{r.path}" }
    @server.requests.each do |request|
      assert_equal request.method == "POST", !request["Idempotency-Key"].nil?, "#{request.method} #{request.path}"
    end
  end

  def test_the_company_rate_limit_is_typed_and_takes_a_tier_added_later
    serve do |_request, _n|
      ok({ "id" => "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "name" => "Acme", "environment" => "sandbox", "status" => "active",
           "createdAt" => "2026-01-15T12:00:00.000Z", "rateLimit" => { "tier" => "enterprise", "requestsPerSecond" => 500, "burst" => 1000 } })
    end
    limit = client.company.get.rate_limit
    assert_instance_of Cambio::Company::RateLimit, limit
    assert_equal ["enterprise", 500, 1000], [limit.tier, limit.requests_per_second, limit.burst]
    assert_equal({ "tier" => "enterprise", "requestsPerSecond" => 500, "burst" => 1000 }, limit.to_api)
  end

  def test_the_returned_records_have_their_class
    echo
    cambio = client
    assert_instance_of Cambio::Company, cambio.company.get
    assert_instance_of Cambio::Balance, cambio.company.balance
    assert_instance_of Cambio::Deposit, cambio.deposits.get("dep_1")
    assert_instance_of Cambio::Withdrawal, cambio.withdrawals.get("wdr_1")
    assert_instance_of Cambio::Quote, cambio.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "1")
    assert_instance_of Cambio::Conversion, cambio.conversions.create(quote_id: "qte_1")
    assert_instance_of Cambio::CreatedWebhook, cambio.webhooks.create(url: "https://example.com/h", events: ["*"])
    assert_instance_of Cambio::Webhook, cambio.webhooks.update("whk_1", url: "https://example.com/h", events: ["*"])
    deleted = cambio.webhooks.delete("whk_1")
    assert_instance_of Cambio::DeletedWebhook, deleted
    assert deleted.deleted?
  end

  def test_keyword_arguments_become_the_apis_camel_case_body
    echo
    client.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "10")
    client.conversions.create(quote_id: "qte_1", reference: "inv-9")
    client.deposits.create(method: "usdt", network: "tron", reference: "order-1", amount: "25",
                           split: { address: "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", percent: 12.5 })
    client.webhooks.update("whk_1", url: "https://example.com/h", events: %i[deposit.completed], enabled: false)

    quote, conversion, deposit, webhook = @server.requests.map { |r| body_of(r) }
    assert_equal({ "sourceCurrency" => "USDT", "settlementCurrency" => "BRL", "sourceAmount" => "10" }, quote)
    assert_equal({ "quoteId" => "qte_1", "reference" => "inv-9" }, conversion)
    assert_equal({ "method" => "usdt", "network" => "tron", "reference" => "order-1", "amount" => "25",
                   "split" => { "address" => "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "percent" => 12.5 } }, deposit)
    assert_equal({ "url" => "https://example.com/h", "events" => ["deposit.completed"], "enabled" => false }, webhook)
  end

  # A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58).
  SOLANA_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
  SOLANA_SIGNATURE = "4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ"

  def test_a_withdrawal_on_solana_is_sent_naming_it_and_its_record_reads_back
    serve do |_req, _n|
      ok(WITHDRAWAL.merge("network" => "solana", "address" => SOLANA_WALLET, "status" => "completed", "txHash" => SOLANA_SIGNATURE,
                          "deliveredAmount" => "5.000000", "completedAt" => "2026-01-15T12:00:05.000Z",
                          "networkCost" => { "asset" => "SOL", "amount" => "0.002044280", "tokenAccountCreated" => true }), status: 201)
    end
    withdrawal = client.withdrawals.create(**WITHDRAWAL_PARAMS, network: "solana", address: SOLANA_WALLET)
    assert_equal({ "method" => "usdt", "network" => "solana", "address" => SOLANA_WALLET, "amount" => "5", "reference" => "payout-1" },
                 body_of(@server.requests.first))
    assert_instance_of Cambio::Withdrawal, withdrawal
    assert_equal ["solana", SOLANA_WALLET, SOLANA_SIGNATURE, "5.000000"],
                 [withdrawal.network, withdrawal.address, withdrawal.tx_hash, withdrawal.delivered_amount]
    # What the payout cost Cambio in SOL: the API's decimal String, never a Float.
    assert_instance_of Cambio::Withdrawal::NetworkCost, withdrawal.network_cost
    assert_equal ["SOL", "0.002044280", true],
                 [withdrawal.network_cost.asset, withdrawal.network_cost.amount, withdrawal.network_cost.token_account_created]
  end

  def test_a_withdrawal_not_yet_final_has_no_network_cost
    serve { |_req, _n| ok(WITHDRAWAL) }
    assert_nil client.withdrawals.get(WITHDRAWAL["id"]).network_cost
  end

  def test_a_deposit_on_solana_reads_back
    serve { |_req, _n| ok(DEPOSIT.merge("network" => "solana", "address" => SOLANA_WALLET, "requiredConfirmations" => 32), status: 201) }
    deposit = client.deposits.create(method: "usdt", network: :solana, reference: "order-1")
    assert_equal({ "method" => "usdt", "network" => "solana", "reference" => "order-1" }, body_of(@server.requests.first))
    assert_equal ["solana", SOLANA_WALLET, 32], [deposit.network, deposit.address, deposit.required_confirmations]
  end

  def test_a_big_decimal_amount_is_sent_without_the_trailing_zeros_of_its_fraction
    echo
    # 25.000000 x 0.5: 12.5 with 7 decimal places as a Python Decimal would keep them, which the API refuses.
    client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: BigDecimal("25.000000") * BigDecimal("0.5"))
    client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: BigDecimal("10.000"))
    client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: BigDecimal("1.00000010"))

    assert_equal %w[12.5 10 1.0000001], @server.requests.map { |r| body_of(r)["amount"] }
  end

  def test_money_as_big_decimal_becomes_a_decimal_string_and_a_float_is_refused
    echo
    client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: BigDecimal("10.5"))
    client.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: BigDecimal("0.000001"))
    client.deposits.create(method: "usdt", network: "tron", reference: "r", amount: BigDecimal("25"),
                           split: { address: "T1", amount: BigDecimal("2.25") })

    withdrawal, quote, deposit = @server.requests.map { |r| body_of(r) }
    assert_equal "10.5", withdrawal["amount"]
    assert_equal "0.000001", quote["sourceAmount"]
    assert_equal "25", deposit["amount"]
    assert_equal "2.25", deposit["split"]["amount"]

    error = assert_raises(ArgumentError) { client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: 10.5) }
    assert_match(/amount: 10.5 is a Float.*String \("10.5"\) or a BigDecimal/, error.message)
    assert_equal 3, @server.requests.size, "nothing sent"
  end

  LONG_PERCENT = "0.1000000000000000055511151231257827"

  def test_a_json_number_from_the_api_is_a_big_decimal_never_a_float
    split = %({"address":"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8","percent":#{LONG_PERCENT},"amount":null,"forwardedAmount":"1.000000","withdrawalId":null})
    body = JSON.generate("success" => true, "data" => DEPOSIT.merge("split" => nil)).sub('"split":null', %("split":#{split}))
    serve { |_req, _n| ScriptedServer.raw(200, body, "Content-Type" => "application/json") }
    deposit = client.deposits.get(DEPOSIT["id"])

    assert_instance_of BigDecimal, deposit.split.percent
    assert_equal BigDecimal(LONG_PERCENT), deposit.split.percent
    assert_instance_of BigDecimal, deposit.to_h[:split][:percent]
    assert_includes deposit.to_json, %("percent":#{LONG_PERCENT}), "to_json writes it back as the same JSON number"
    assert_includes JSON.pretty_generate(deposit), %("percent": #{LONG_PERCENT})
    assert_equal 19, deposit.required_confirmations
    assert_instance_of Integer, deposit.required_confirmations
  end

  def test_a_big_decimal_split_percent_is_sent_as_the_exact_json_number
    echo
    [[BigDecimal(LONG_PERCENT), LONG_PERCENT], [BigDecimal("12.50"), "12.5"], [BigDecimal("10"), "10"], [BigDecimal("1e1"), "10"]].each do |percent, _|
      client.deposits.create(method: "usdt", network: "tron", reference: "r", split: { address: "T1", percent: percent })
    end

    sent = @server.requests.map { |request| request.body[/"percent":([^,}]*)/, 1] }
    assert_equal [LONG_PERCENT, "12.5", "10", "10"], sent
    [BigDecimal("NaN"), BigDecimal("Infinity")].each do |percent|
      error = assert_raises(ArgumentError) { client.deposits.create(method: "usdt", network: "tron", reference: "r", split: { address: "T1", percent: percent }) }
      assert_match(/percent must be a finite number/, error.message)
    end
    assert_equal 4, @server.requests.size, "nothing sent"
  end

  def test_a_created_webhooks_secret_is_hidden_from_inspect_to_s_and_pp
    secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
    serve do |_req, _n|
      ok({ "id" => "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "url" => "https://example.com/h", "events" => ["*"], "description" => nil,
           "enabled" => true, "createdAt" => "2026-01-15T12:00:00.000Z", "updatedAt" => "2026-01-15T12:00:00.000Z", "secret" => secret }, status: 201)
    end
    webhook = client.webhooks.create(url: "https://example.com/h", events: ["*"])

    [webhook.inspect, webhook.to_s, "#{webhook}", PP.pp(webhook, +""), [webhook].inspect, { hook: webhook }.inspect].each do |shown|
      refute_includes shown, "MfKQ9r8"
    end
    assert_match(/\A#<Cambio::CreatedWebhook id: "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", url: .*, secret: \[hidden\]>\z/, webhook.inspect)
    assert_match(/secret: \[hidden\]/, PP.pp(webhook, +""))
    assert_equal secret, webhook.secret
    assert_equal secret, webhook[:secret]
    assert_equal secret, webhook.to_h[:secret]
    assert_equal secret, JSON.parse(webhook.to_json)["secret"]
  end

  def test_unknown_and_missing_keywords_are_refused_before_any_request
    echo
    error = assert_raises(ArgumentError) { client.deposits.create(method: "usdt", network: "tron", reference: "r", amout: "1") }
    assert_match(/unknown keyword: :amout for deposits.create, which takes :method, :reference, :network, :amount, :split/, error.message)
    error = assert_raises(ArgumentError) { client.withdrawals.create(method: "usdt", network: "tron", amount: "1") }
    assert_match(/missing keywords: :address, :reference for withdrawals.create/, error.message)
    error = assert_raises(ArgumentError) { client.withdrawals.create(**WITHDRAWAL_PARAMS, amount: nil) }
    assert_match(/missing keyword: :amount/, error.message)
    assert_raises(ArgumentError) { client.deposits.get("") }
    assert_raises(ArgumentError) { client.deposits.get(nil) }
    assert_empty @server.requests
  end

  def test_an_id_is_one_escaped_path_segment
    echo
    client.deposits.get("dep_1/../../company?x=1 y")
    assert_equal "/v1/deposits/dep_1%2F..%2F..%2Fcompany%3Fx%3D1%20y", @server.requests.first.path
  end

  def test_a_record_reads_like_a_struct
    serve { |_req, _n| ok(DEPOSIT.merge("newField" => { "someValue" => 1 })) }

    deposit = client.deposits.get(DEPOSIT["id"])

    assert_equal "0.000000", deposit.received_amount
    assert_equal 19, deposit.required_confirmations
    assert_nil deposit.amount_status
    assert_nil deposit.split
    assert_equal "usdt", deposit.method
    assert_instance_of Method, deposit.method(:to_h), "Object#method still works with an argument"
    transaction = deposit.transactions.first
    assert_instance_of Cambio::Deposit::Transaction, transaction
    assert_equal "ab12", transaction.tx_hash
    assert_equal 7, transaction.block_number
    assert_equal "0.000000", deposit[:received_amount]
    assert_equal "0.000000", deposit["receivedAmount"]
    assert_equal 1, deposit.new_field.some_value, "a field added after generation is readable"
    assert_equal "ab12", deposit.dig(:transactions, 0, :tx_hash)
    assert deposit.frozen?
    assert_equal "req-1", deposit.last_response.request_id
    assert_equal 200, deposit.last_response.status
    refute deposit.last_response.idempotent_replayed?
  end

  def test_to_h_to_json_equality_and_inspect
    serve { |_req, _n| ok(DEPOSIT) }
    deposit = client.deposits.get(DEPOSIT["id"])

    hash = deposit.to_h
    assert_equal "0.000000", hash[:received_amount]
    assert_equal [{ tx_hash: "ab12", amount: "1.000000", block_number: 7, confirmations: 2, status: "confirming" }], hash[:transactions]
    assert_equal DEPOSIT, JSON.parse(deposit.to_json)
    assert_equal deposit, Cambio::Deposit.from_api(DEPOSIT)
    assert_equal deposit.hash, Cambio::Deposit.from_api(DEPOSIT).hash
    assert_match(/\A#<Cambio::Deposit id: "dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5", method: "usdt", /, deposit.inspect)
    assert_match(/Cambio::Deposit::Transaction/, PP.pp(deposit, +""))
    built = Cambio::Deposit.new(id: "dep_1", received_amount: "1.000000")
    assert_equal "1.000000", built.received_amount
    assert_raises(ArgumentError) { Cambio::Deposit.new(received: "1") }
  end

  def test_pattern_matching_on_records
    serve { |_req, _n| ok(DEPOSIT) }
    result =
      case client.deposits.get(DEPOSIT["id"])
      in { status: "awaiting_payment", address:, transactions: [{ tx_hash: }] } then [address, tx_hash]
      end
    assert_equal ["TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "ab12"], result
  end

  def test_a_replayed_answer_says_so
    serve { |_req, _n| ok({ "id" => "cnv_1" }, status: 201, headers: { "Idempotent-Replayed" => "true" }) }
    assert client.conversions.create(quote_id: "qte_1", idempotency_key: "k-1").last_response.idempotent_replayed?
    assert_equal "k-1", @server.requests.first["Idempotency-Key"]
  end

  def test_an_idempotency_key_the_api_would_refuse_is_an_argument_error
    echo
    ["", "x" * 256, "line\nbreak", "café"].each do |key|
      error = assert_raises(ArgumentError) { client.conversions.create(quote_id: "qte_1", idempotency_key: key) }
      assert_match(/idempotency_key must be 1 to 255 printable ASCII characters/, error.message)
    end
    client.conversions.create(quote_id: "qte_1", idempotency_key: :"order-7")
    assert_equal ["order-7"], @server.requests.map { |r| r["Idempotency-Key"] }
  end

  def test_list_params_go_in_the_query
    serve { |_req, _n| ok([], pagination: { "nextCursor" => nil }) }
    client.conversions.list
    client.conversions.list(limit: 5, cursor: "abc/+=")
    client.webhooks.list(limit: 100)
    assert_equal ["/v1/conversions", "/v1/conversions?limit=5&cursor=abc%2F%2B%3D", "/v1/webhooks?limit=100"], @server.requests.map(&:path)
  end
end
