# frozen_string_literal: true

require_relative "test_helper"

# Retries: connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE, 429 and 5xx are retried with
# capped, jittered backoff (or after Retry-After); every try of one POST carries the same
# Idempotency-Key, so the API replays instead of withdrawing twice; other 4xx are never retried.
class RetriesTest < Minitest::Test
  include CambioTest::Scripted
  include CambioTest

  # Creates a withdrawal against a server that answers +first+, then 201: checks the call returns
  # it after two tries that carried one Idempotency-Key, and returns the keys sent.
  def assert_created_on_the_second_try_under_one_key(first)
    serve { |_req, n| n == 1 ? first : ok(WITHDRAWAL, status: 201) }

    created = client.withdrawals.create(**WITHDRAWAL_PARAMS)

    assert_equal WITHDRAWAL["id"], created.id
    keys = @server.requests.map { |r| r["Idempotency-Key"] }
    assert_equal 2, keys.size
    assert_equal keys[0], keys[1]
    keys
  end

  def test_503_then_201_is_one_withdrawal_with_the_same_idempotency_key_on_both_tries
    keys = assert_created_on_the_second_try_under_one_key(failure(503, "INTERNAL_ERROR"))

    assert_match UUID_V4, keys[0]
  end

  def test_a_dropped_connection_is_retried_with_the_same_key_and_a_new_call_gets_a_new_key
    serve { |_req, n| n == 1 ? :drop : ok(WITHDRAWAL, status: 201) }
    cambio = client

    cambio.withdrawals.create(**WITHDRAWAL_PARAMS)
    first = @server.requests.map { |r| r["Idempotency-Key"] }
    cambio.withdrawals.create(**WITHDRAWAL_PARAMS)

    assert_equal 2, first.size
    assert_equal first[0], first[1]
    refute_equal first[0], @server.requests.last["Idempotency-Key"]
  end

  def test_the_callers_idempotency_key_is_sent_on_every_try
    serve { |_req, n| n < 3 ? failure(500, "INTERNAL_ERROR") : ok(WITHDRAWAL, status: 201) }

    client.withdrawals.create(**WITHDRAWAL_PARAMS, idempotency_key: "order-42-payout")

    assert_equal ["order-42-payout"] * 3, @server.requests.map { |r| r["Idempotency-Key"] }
  end

  def test_429_honours_retry_after_in_seconds
    serve { |_req, n| n == 1 ? failure(429, "RATE_LIMITED", headers: { "Retry-After" => "1" }) : ok(WITHDRAWAL) }

    client.withdrawals.get(WITHDRAWAL["id"])

    first, second = @server.requests
    assert_equal 2, @server.requests.size
    assert_operator second.at - first.at, :>=, 0.95
  end

  def test_retry_after_as_an_http_date_is_honoured
    serve do |_req, n|
      n == 1 ? failure(503, "PRICE_UNAVAILABLE", headers: { "Retry-After" => (Time.now + 2).httpdate }) : ok(WITHDRAWAL)
    end

    client.withdrawals.get(WITHDRAWAL["id"])

    first, second = @server.requests
    # An HTTP date has whole seconds: the wait is between 1 and 2 s.
    assert_operator second.at - first.at, :>=, 0.9
    assert_operator second.at - first.at, :<=, 2.5
  end

  def test_a_retry_after_beyond_60_s_falls_back_to_the_backoff
    serve { |_req, n| n == 1 ? failure(429, "RATE_LIMITED", headers: { "Retry-After" => "3600" }) : ok(WITHDRAWAL) }

    client.withdrawals.get(WITHDRAWAL["id"])

    first, second = @server.requests
    assert_operator second.at - first.at, :<, 1
  end

  def test_409_idempotency_key_in_use_is_retried_with_the_same_key
    assert_created_on_the_second_try_under_one_key(failure(409, "IDEMPOTENCY_KEY_IN_USE"))
  end

  def test_another_409_is_not_retried
    serve { |_req, _n| failure(409, "DUPLICATE_REFERENCE", details: { "existingId" => "wdr_x" }) }

    error = assert_raises(Cambio::ConflictError) { client.withdrawals.create(**WITHDRAWAL_PARAMS) }

    assert_equal "DUPLICATE_REFERENCE", error.code
    assert_equal({ "existingId" => "wdr_x" }, error.details)
    assert_equal 1, @server.requests.size
  end

  def test_400_is_not_retried
    details = [{ "path" => "amount", "message" => "must be a decimal string" }]
    serve { |_req, _n| failure(400, "VALIDATION_FAILED", "Invalid request", details: details) }

    error = assert_raises(Cambio::InvalidRequestError) { client.withdrawals.create(**WITHDRAWAL_PARAMS) }

    assert_equal "VALIDATION_FAILED", error.code
    assert_equal 400, error.status
    assert_equal details, error.details
    assert_equal 1, @server.requests.size
  end

  def test_422_is_not_retried
    serve { |_req, _n| failure(422, "INSUFFICIENT_BALANCE", "Insufficient balance") }

    error = assert_raises(Cambio::RefusedError) { client.withdrawals.create(**WITHDRAWAL_PARAMS) }

    assert_equal "INSUFFICIENT_BALANCE", error.code
    assert_equal 422, error.status
    assert_equal "req-1", error.request_id
    assert_equal 1, @server.requests.size
  end

  def test_a_refused_connection_is_retried_then_raises_connection_failed
    port = ScriptedServer.closed_port
    cambio = Cambio::Client.new(api_key: "ck_test_k", api_secret: "cs_test_s", base_url: "http://127.0.0.1:#{port}", **FAST)

    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    error = assert_raises(Cambio::ConnectionError) { cambio.company.get }

    assert_equal "CONNECTION_FAILED", error.code
    assert_nil error.status
    assert_kind_of Cambio::CambioError, error
    assert_kind_of SystemCallError, error.cause
    # Two retries, each after at least half of its backoff (0.005 s, then 0.01 s).
    assert_operator Process.clock_gettime(Process::CLOCK_MONOTONIC) - started, :>=, 0.015
  end

  def test_a_timeout_is_retried_then_raises_timeout
    serve { |_req, _n| ScriptedServer.hang(2) }

    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    error = assert_raises(Cambio::ConnectionError) { client(timeout: 0.3, max_retries: 1).company.get }
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started

    assert_equal "TIMEOUT", error.code
    assert_match(/No answer within 0.3 s/, error.message)
    assert_equal 2, @server.requests.size
    assert_operator elapsed, :>=, 0.6
    assert_operator elapsed, :<, 1.9
  end

  def test_the_timeout_bounds_the_whole_try_even_when_the_answer_dribbles_in
    # 52 bytes, 4 at a time 0.15 s apart: about 2 s in all, though no single read waits 0.5 s.
    body = JSON.generate("success" => true, "data" => { "id" => "cmp_1", "name" => "Acme" })
    serve { |_req, _n| ScriptedServer.trickle(0.15, ScriptedServer.raw(200, body, "Content-Type" => "application/json")) }

    started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    error = assert_raises(Cambio::ConnectionError) { client(timeout: 0.5, max_retries: 0).company.get }
    elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started

    assert_equal "TIMEOUT", error.code
    assert_match(/No answer within 0.5 s/, error.message)
    assert_operator elapsed, :<, 1.2
    assert_equal 1, @server.requests.size
  end

  def test_an_answer_that_dribbles_in_within_the_timeout_is_read_whole
    body = JSON.generate("success" => true, "data" => { "id" => "cmp_1", "name" => "Acme" })
    serve { |_req, _n| ScriptedServer.trickle(0.01, ScriptedServer.raw(200, body, "Content-Type" => "application/json")) }

    assert_equal "Acme", client(timeout: 5).company.get.name
  end

  def test_a_429_without_the_envelope_from_a_cdn_or_proxy_is_a_rate_limit_error_retried_after_retry_after
    [ScriptedServer.raw(429, "Too Many Requests", "Content-Type" => "text/plain", "Retry-After" => "1"),
     ScriptedServer.json(429, { "message" => "Too Many Requests" }, "Retry-After" => "1")].each do |throttled|
      serve { |_req, n| n == 1 ? throttled : ok(WITHDRAWAL) }

      assert_equal WITHDRAWAL["id"], client.withdrawals.get(WITHDRAWAL["id"]).id
      first, second = @server.requests
      assert_equal 2, @server.requests.size
      assert_operator second.at - first.at, :>=, 0.95
      @server.stop

      serve { |_req, _n| throttled.dup.tap { |reply| reply.headers = reply.headers.reject { |name, _| name == "Retry-After" } } }
      error = assert_raises(Cambio::RateLimitError) { client(max_retries: 2).company.get }
      assert_equal ["RATE_LIMITED", 429, "req-3"], [error.code, error.status, error.request_id]
      assert_equal 3, @server.requests.size
      @server.stop
    end
  end

  HOOK_ID = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5"

  def test_a_delete_retried_after_its_answer_was_lost_and_answered_404_is_the_webhook_deleted
    [:drop, failure(503, "INTERNAL_ERROR")].each do |lost|
      serve { |_req, n| n == 1 ? lost : failure(404, "NOT_FOUND", "Webhook not found") }

      deleted = client.webhooks.delete(HOOK_ID)

      assert_instance_of Cambio::DeletedWebhook, deleted
      assert_equal [HOOK_ID, true], [deleted.id, deleted.deleted]
      assert_equal %w[DELETE DELETE], @server.requests.map(&:method)
      @server.stop
    end
  end

  def test_a_404_to_the_first_try_of_a_delete_or_to_a_retried_get_is_still_not_found
    serve { |_req, n| n == 1 ? :drop : failure(404, "NOT_FOUND") }
    cambio = client

    assert_raises(Cambio::NotFoundError) { cambio.webhooks.get(HOOK_ID) }
    error = assert_raises(Cambio::NotFoundError) { cambio.webhooks.delete(HOOK_ID) }

    assert_equal ["NOT_FOUND", 404], [error.code, error.status]
    assert_equal %w[GET GET DELETE], @server.requests.map(&:method)
  end

  def test_a_404_after_a_429_to_a_delete_is_still_not_found_as_a_429_did_nothing
    limited = failure(429, "RATE_LIMITED", headers: { "Retry-After" => "0" })
    serve { |_req, n| n == 1 ? limited : failure(404, "NOT_FOUND", "Webhook not found") }

    error = assert_raises(Cambio::NotFoundError) { client.webhooks.delete(HOOK_ID) }

    assert_equal ["NOT_FOUND", 404], [error.code, error.status]
    assert_equal %w[DELETE DELETE], @server.requests.map(&:method)
  end

  def test_a_404_to_a_delete_retried_after_a_refused_connection_is_not_found_as_the_first_try_sent_nothing
    # The port refuses the first try; the API starts listening on it during the backoff and knows no
    # such webhook: the delete never happened, so it is not reported done.
    port = ScriptedServer.closed_port
    not_found = failure(404, "NOT_FOUND", "Webhook not found")
    api = nil
    # A client is frozen: a subclass's pause starts the API at the first backoff.
    starts_the_api_in_its_backoff = Class.new(Cambio::Client) do
      define_method(:pause) do |seconds|
        api ||= ScriptedServer.new(port: port) { |_req, _n| not_found }
        super(seconds)
      end
    end
    cambio = starts_the_api_in_its_backoff.new(api_key: "ck_test_k", api_secret: "cs_test_s", base_url: "http://127.0.0.1:#{port}", **FAST)

    error = assert_raises(Cambio::NotFoundError) { cambio.webhooks.delete("whk_typo") }
    @server = api # stopped by teardown

    assert_equal ["NOT_FOUND", 404], [error.code, error.status]
    assert_equal [%w[DELETE /v1/webhooks/whk_typo]], @server.requests.map { |r| [r.method, r.path] } # the retry alone reached it
  end

  def test_a_404_to_a_delete_retried_after_a_try_that_timed_out_once_connected_is_the_webhook_deleted
    # Connected and sent, then no answer in time: that try may have deleted it.
    serve { |_req, n| n == 1 ? ScriptedServer.hang(1) : failure(404, "NOT_FOUND", "Webhook not found") }

    deleted = client(timeout: 0.2).webhooks.delete(HOOK_ID)

    assert_equal [HOOK_ID, true], [deleted.id, deleted.deleted]
    assert_equal 2, @server.requests.size
  end

  def test_a_timeout_then_an_answer_succeeds
    serve { |_req, n| n == 1 ? ScriptedServer.hang(1) : ok(WITHDRAWAL, status: 201) }

    created = client(timeout: 0.2).withdrawals.create(**WITHDRAWAL_PARAMS)

    assert_equal WITHDRAWAL["id"], created.id
    assert_equal 1, @server.requests.map { |r| r["Idempotency-Key"] }.uniq.size
  end

  def test_gives_up_after_max_retries_with_the_last_error_typed
    serve { |_req, _n| failure(503, "PRICE_UNAVAILABLE", "No current USDT/BRL price") }

    error = assert_raises(Cambio::ApiServerError) do
      client(max_retries: 3).conversions.quote(source_currency: "USDT", settlement_currency: "BRL", source_amount: "10")
    end

    assert_equal "PRICE_UNAVAILABLE", error.code
    assert_equal 503, error.status
    assert_equal "req-4", error.request_id
    assert_equal 4, @server.requests.size
  end

  def test_max_retries_0_tries_once
    serve { |_req, _n| failure(500, "INTERNAL_ERROR") }

    assert_raises(Cambio::ApiServerError) { client(max_retries: 0).company.get }

    assert_equal 1, @server.requests.size
  end

  def test_the_backoff_is_half_to_all_of_half_a_second_times_2_to_the_n_capped_at_5_s
    cambio = Cambio::Client.new(api_key: "k", api_secret: "s", base_url: "https://api.example.com")
    [0.5, 1, 2, 4, 5, 5, 5].each_with_index do |ceiling, attempt|
      50.times do
        delay = cambio.send(:backoff, attempt)
        assert_operator delay, :>=, ceiling / 2.0, "attempt #{attempt}"
        assert_operator delay, :<=, ceiling, "attempt #{attempt}"
      end
    end
    delays = Array.new(50) { cambio.send(:backoff, 0) }
    assert_operator delays.uniq.size, :>, 1, "jittered"
  end

  def test_gets_carry_no_idempotency_key
    serve { |_req, _n| ok(WITHDRAWAL) }

    client.withdrawals.get(WITHDRAWAL["id"])

    assert_nil @server.requests.first["Idempotency-Key"]
  end
end
