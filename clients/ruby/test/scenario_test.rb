# frozen_string_literal: true

require_relative "test_helper"
require "net/http"
require "securerandom"

# clients/conformance/scenario.md with the Ruby client's public surface, one test per step, in
# order, against the runtime CAMBIO_API_URL names (the bridge starts one). Skipped only when
# CAMBIO_API_URL is unset.
class ConformanceScenarioTest < Minitest::Test
  i_suck_and_my_tests_are_order_dependent!

  PAYOUT_ADDRESS = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui"
  STATE = {} # rubocop:disable Style/MutableConstant -- what each step leaves for the next ones
  DONE = []  # rubocop:disable Style/MutableConstant

  Minitest.after_run { STATE[:receiver]&.stop }

  def setup
    skip "CAMBIO_API_URL is unset: the live scenario needs a runtime (the bridge, test/clients/ruby.test.ts, starts one)" if env("CAMBIO_API_URL").nil?
  end

  def test_00_construct_the_client_and_a_receiver_that_keeps_raw_bodies
    STATE[:cambio] = Cambio::Client.new(api_key: env!("CAMBIO_API_KEY"), api_secret: env!("CAMBIO_API_SECRET"), base_url: env!("CAMBIO_API_URL"))
    STATE[:receiver] = ScriptedServer.new { |_request, _n| ScriptedServer.raw(204, "") }
    DONE << 0
  end

  def test_01_company_and_balance
    after 0
    company = cambio.company.get
    assert_equal "sandbox", company.environment
    assert_match(/\Acmp_/, company.id)
    # A new company is at the standard tier; its figures are the stage's, whatever they are.
    limit = company.rate_limit
    assert_instance_of Cambio::Company::RateLimit, limit
    assert_equal "standard", limit.tier
    assert_kind_of Integer, limit.requests_per_second
    assert_kind_of Integer, limit.burst
    assert_operator limit.requests_per_second, :>, 0
    assert_operator limit.burst, :>=, limit.requests_per_second
    balance = cambio.company.balance
    assert_equal %w[BRL USDT], balance.balances.map(&:currency).sort
    balance.balances.each do |entry|
      [entry.available, entry.pending, entry.locked].each { |amount| assert_kind_of String, amount }
    end
    DONE << 1
  end

  def test_02_webhook_created
    after 0
    STATE[:url] = "http://127.0.0.1:#{STATE[:receiver].port}/hooks"
    webhook = cambio.webhooks.create(url: STATE[:url], events: ["*"])
    assert_match(/\Awhk_/, webhook.id)
    assert_match(/\Awhsec_/, webhook.secret)
    STATE[:webhook] = webhook
    DONE << 2
  end

  def test_03_deposit_paid_and_completed
    after 0
    deposit = cambio.deposits.create(method: "usdt", network: "tron", reference: "conformance-#{SecureRandom.uuid}", amount: "25")
    assert_equal "awaiting_payment", deposit.status
    assert_equal "25.000000", deposit.amount
    refute_empty deposit.address.to_s
    paid = Net::HTTP.post(URI(env!("CAMBIO_SANDBOX_PAY_URL")), JSON.generate("address" => deposit.address, "amount" => "25"),
                          "Content-Type" => "application/json")
    assert_equal "200", paid.code, paid.body
    completed = wait_until(60) { cambio.deposits.get(deposit.id) }.until { |d| d.status == "completed" }
    assert_equal "25.000000", completed.credited_amount
    assert_equal "25.000000", completed.received_amount
    STATE[:deposit] = completed
    DONE << 3
  end

  def test_04_delivery_verified_and_a_changed_byte_refused
    after 2, 3
    secret = STATE[:webhook].secret
    deposit_id = STATE[:deposit].id
    delivery = wait_until(30) do
      STATE[:receiver].requests.find do |request|
        event = cambio.webhooks.verify(request.body, request.headers.to_h, secret)
        event.type == "deposit.completed" && event.data.id == deposit_id
      rescue Cambio::WebhookVerificationError
        false
      end
    end.until { |found| !found.nil? }
    event = cambio.webhooks.verify(delivery.body, delivery.headers.to_h, secret)
    assert_kind_of Cambio::DepositCompletedEvent, event
    assert_equal "25.000000", event.data.credited_amount

    tampered = delivery.body.dup
    tampered.setbyte(tampered.bytesize - 2, tampered.getbyte(tampered.bytesize - 2) ^ 1)
    assert_raises(Cambio::WebhookVerificationError) { cambio.webhooks.verify(tampered, delivery.headers.to_h, secret) }
    DONE << 4
  end

  def test_05_conversion
    after 3
    quote = cambio.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "10")
    assert_match(/\Aqte_/, quote.id)
    refute_nil quote.settlement_amount
    conversion = cambio.conversions.create(quote_id: quote.id)
    assert_equal "completed", conversion.status
    assert_equal quote.settlement_amount, conversion.settlement_amount
    STATE[:conversion] = conversion
    DONE << 5
  end

  def test_06_idempotent_replay
    after 5
    second = cambio.conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "1")
    key = "conformance-#{SecureRandom.uuid}"
    first = cambio.conversions.create(quote_id: second.id, idempotency_key: key)
    replayed = cambio.conversions.create(quote_id: second.id, idempotency_key: key)
    assert_equal first.id, replayed.id
    assert replayed.last_response.idempotent_replayed?, "the second answer carries Idempotent-Replayed: true"
    usdt = cambio.company.balance.balances.find { |entry| entry.currency == "USDT" }
    assert_equal "14.000000", usdt.available
    STATE[:replayed] = first
    DONE << 6
  end

  def test_07_pagination
    after 6
    page = cambio.conversions.list(limit: 1)
    assert_equal 1, page.data.size
    refute_nil page.next_cursor
    walked = cambio.conversions.list(limit: 1).auto_paging_each.map(&:id)
    assert_equal [STATE[:replayed].id, STATE[:conversion].id], walked
    DONE << 7
  end

  def test_08_refused_for_balance
    after 0
    error = assert_raises(Cambio::RefusedError) do
      cambio.withdrawals.create(method: "usdt", network: "tron", address: PAYOUT_ADDRESS, amount: "1000",
                                reference: "conformance-#{SecureRandom.uuid}")
    end
    assert_equal "INSUFFICIENT_BALANCE", error.code
    assert_equal 422, error.status
    refute_nil error.request_id
    DONE << 8
  end

  def test_09_authentication
    after 0
    wrong = Cambio::Client.new(api_key: env!("CAMBIO_API_KEY"), api_secret: "not-the-secret", base_url: env!("CAMBIO_API_URL"))
    error = assert_raises(Cambio::AuthenticationError) { wrong.company.get }
    assert_equal "AUTH_FAILED", error.code
    assert_equal 401, error.status
    DONE << 9
  end

  def test_10_not_found
    after 0
    error = assert_raises(Cambio::NotFoundError) { cambio.deposits.get("dep_00000000000000000000000000") }
    assert_equal "NOT_FOUND", error.code
    assert_equal 404, error.status
    DONE << 10
  end

  def test_11_webhook_managed
    after 2
    id = STATE[:webhook].id
    updated = cambio.webhooks.update(id, url: STATE[:url], events: ["deposit.completed"])
    assert_equal ["deposit.completed"], updated.events
    assert_equal ["deposit.completed"], cambio.webhooks.get(id).events
    assert_includes cambio.webhooks.list.data.map(&:id), id
    deleted = cambio.webhooks.delete(id)
    assert_equal id, deleted.id
    assert_equal true, deleted.deleted
    assert_raises(Cambio::NotFoundError) { cambio.webhooks.get(id) }
    DONE << 11
  end

  # Beyond scenario.md: the point of the Idempotency-Key. A proxy in front of the runtime throws
  # away the answer to the first try of a withdrawal and cuts the connection, as a network that
  # drops just after the withdrawal was made; the client retries with the same key and the API
  # replays it: one withdrawal, 5 + 1 fee held once.
  def test_12_a_retry_after_a_lost_answer_makes_one_withdrawal
    after 6
    upstream = URI(env!("CAMBIO_API_URL"))
    proxy = ScriptedServer.new do |request, n|
      answer = forward(upstream, request)
      n == 1 ? :drop : ScriptedServer.raw(answer.code.to_i, answer.body, "Content-Type" => answer["content-type"],
                                          "X-Request-Id" => answer["x-request-id"], "Idempotent-Replayed" => answer["idempotent-replayed"])
    end
    begin
      through = Cambio::Client.new(api_key: env!("CAMBIO_API_KEY"), api_secret: env!("CAMBIO_API_SECRET"), base_url: "#{proxy.url}/v1",
                                   initial_delay: 0.05, max_delay: 0.1)
      reference = "lost-answer-#{SecureRandom.uuid}"
      created = through.withdrawals.create(method: "usdt", network: "tron", address: PAYOUT_ADDRESS, amount: "5", reference: reference)

      keys = proxy.requests.map { |r| r["Idempotency-Key"] }
      assert_equal 2, keys.size
      assert_equal keys[0], keys[1]
      assert created.last_response.idempotent_replayed?
      assert_equal reference, cambio.withdrawals.get(created.id).reference
      usdt = cambio.company.balance.balances.find { |entry| entry.currency == "USDT" }
      assert_equal "8.000000", usdt.available, "14 - (5 + 1 fee) once; a doubled withdrawal would leave 2"
    ensure
      proxy.stop
    end
  end

  private

  def forward(upstream, request)
    headers = request.headers.to_h.reject { |name, _| %w[host content-length connection accept-encoding].include?(name.downcase) }
    klass = { "GET" => Net::HTTP::Get, "POST" => Net::HTTP::Post }.fetch(request.method)
    outgoing = klass.new(request.path, headers)
    outgoing.body = request.body unless request.body.empty?
    Net::HTTP.start(upstream.hostname, upstream.port) { |http| http.request(outgoing) }
  end

  def cambio
    STATE.fetch(:cambio)
  end

  def env(name)
    value = ENV.fetch(name, nil)
    value.nil? || value.empty? ? nil : value
  end

  def env!(name)
    env(name) or flunk("#{name} is unset")
  end

  # Fails this step at once, naming the earlier step it needs, when that one did not pass.
  def after(*steps)
    missing = steps - DONE
    flunk("step #{missing.join(", ")} did not pass, so this step cannot run") unless missing.empty?
  end

  Poll = Struct.new(:seconds, :read) do
    def until
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + seconds
      loop do
        value = read.call
        return value if yield(value)
        raise Minitest::Assertion, "not reached within #{seconds} s; last: #{value.inspect}" if Process.clock_gettime(Process::CLOCK_MONOTONIC) > deadline

        sleep 0.25
      end
    end
  end

  # Reads about every 250 ms until the condition holds: wait_until(60) { read }.until { |v| ... }.
  def wait_until(seconds, &read)
    Poll.new(seconds, read)
  end
end
