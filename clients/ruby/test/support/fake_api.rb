# frozen_string_literal: true

require "json"
require_relative "scripted_server"

# A small stand-in for the API on a ScriptedServer, answering every route with a plausible record,
# so the README's examples run as written: POST /v1/withdrawals for reference "payout-1" is
# refused for balance; a POST repeated with the same Idempotency-Key and body is replayed.
class FakeApi
  NOW = "2026-01-15T12:00:00.000Z"

  def initialize
    @replays = {}
    @server = ScriptedServer.new { |request, _n| answer(request) }
  end

  def url
    "#{@server.url}/v1"
  end

  def requests
    @server.requests
  end

  def stop
    @server.stop
  end

  private

  def answer(request)
    path, query = request.path.split("?", 2)
    if request.method == "POST" && (seen = @replays[[path, request["Idempotency-Key"], request.body]])
      return ScriptedServer.json(201, seen, "Idempotent-Replayed" => "true")
    end

    status, body = route(request.method, path, query.to_s, request.body.empty? ? {} : JSON.parse(request.body))
    @replays[[path, request["Idempotency-Key"], request.body]] = body if request.method == "POST" && status < 300
    ScriptedServer.json(status, body)
  end

  def route(method, path, query, body)
    case [method, path]
    in ["GET", "/v1/company"] then ok(company)
    in ["GET", "/v1/company/balance"] then ok(balance)
    in ["POST", "/v1/deposits"] then ok(deposit(body["reference"], body["amount"]), 201)
    in ["GET", %r{\A/v1/deposits/dep_0{26}\z}] then error(404, "NOT_FOUND", "Not found")
    in ["GET", %r{\A/v1/deposits/(.+)\z}] then ok(deposit("order-1", "25"))
    in ["POST", "/v1/withdrawals"]
      return error(422, "INSUFFICIENT_BALANCE", "Insufficient balance") if body["reference"] == "payout-1"

      ok(withdrawal(body), 201)
    in ["GET", %r{\A/v1/withdrawals/}] then ok(withdrawal({ "reference" => "payout-2", "amount" => "5" }))
    in ["POST", "/v1/conversions/quote"] then ok(quote(body["sourceAmount"]), 201)
    in ["POST", "/v1/conversions"] then ok(conversion(body["quoteId"], body["reference"]), 201)
    in ["GET", "/v1/conversions"] then conversions_page(query)
    in ["GET", %r{\A/v1/conversions/}] then ok(conversion("qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5", nil))
    in ["POST", "/v1/webhooks"] then ok(webhook(body).merge("secret" => "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), 201)
    in ["GET", "/v1/webhooks"] then ok([webhook({ "url" => "https://example.com/cambio", "events" => ["*"] })], 200, nil)
    in ["GET", %r{\A/v1/webhooks/}] then ok(webhook({ "url" => "https://example.com/cambio", "events" => ["*"] }))
    in ["PUT", %r{\A/v1/webhooks/}] then ok(webhook(body))
    in ["DELETE", %r{\A/v1/webhooks/(.+)\z}] then ok({ "id" => path.split("/").last, "deleted" => true })
    else error(404, "NOT_FOUND", "Not found")
    end
  end

  def ok(data, status = 200, next_cursor = :none)
    body = { "success" => true, "data" => data }
    body["pagination"] = { "nextCursor" => next_cursor } unless next_cursor == :none
    [status, body]
  end

  def error(status, code, message)
    [status, { "success" => false, "error" => { "code" => code, "message" => message, "details" => nil } }]
  end

  def conversions_page(query)
    cursor = URI.decode_www_form(query).to_h["cursor"]
    page = cursor.to_i
    ids = (page * 2...(page * 2) + 2).map { |i| format("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4%02d", i) }
    ok(ids.map { |id| conversion("qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5", nil).merge("id" => id) }, 200, page < 2 ? (page + 1).to_s : nil)
  end

  def company
    { "id" => "cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "name" => "Acme", "environment" => "sandbox", "status" => "active", "createdAt" => NOW,
      "rateLimit" => { "tier" => "standard", "requestsPerSecond" => 10, "burst" => 20 } }
  end

  def balance
    { "balances" => [{ "currency" => "USDT", "available" => "25.000000", "pending" => "0.000000", "locked" => "0.000000" },
                     { "currency" => "BRL", "available" => "54.00", "pending" => "0.00", "locked" => "0.00" }],
      "updatedAt" => NOW }
  end

  def deposit(reference, amount)
    { "id" => "dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "method" => "usdt", "reference" => reference, "network" => "tron",
      "address" => "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "amount" => amount && format("%.6f", amount.to_r),
      "receivedAmount" => "0.000000", "creditedAmount" => "0.000000", "amountStatus" => nil, "status" => "awaiting_payment",
      "confirmations" => 0, "requiredConfirmations" => 19, "transactions" => [], "split" => nil, "expiresAt" => NOW,
      "createdAt" => NOW, "updatedAt" => NOW }
  end

  def withdrawal(body)
    { "id" => "wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "method" => "usdt", "reference" => body["reference"], "network" => "tron",
      "address" => "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui", "amount" => format("%.6f", body["amount"].to_r), "fee" => "1.000000",
      "status" => "pending", "txHash" => nil, "failureReason" => nil, "createdAt" => NOW, "updatedAt" => NOW, "completedAt" => nil }
  end

  def quote(amount)
    { "id" => "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "sourceCurrency" => "USDT", "settlementCurrency" => "BRL",
      "sourceAmount" => format("%.6f", amount.to_r), "settlementAmount" => format("%.2f", (amount.to_r * 54 / 10).floor(2)),
      "rate" => "5.40000000", "expiresAt" => NOW, "createdAt" => NOW }
  end

  def conversion(quote_id, reference)
    quote("10").merge("id" => "cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "quoteId" => quote_id, "reference" => reference,
                      "status" => "completed", "completedAt" => NOW).tap { |c| c.delete("expiresAt") }
  end

  def webhook(body)
    { "id" => "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5", "url" => body["url"], "events" => body["events"],
      "description" => body["description"], "enabled" => body.fetch("enabled", true), "createdAt" => NOW, "updatedAt" => NOW }
  end
end
