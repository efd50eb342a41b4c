# frozen_string_literal: true

require_relative "test_helper"
require "stringio"
require "bigdecimal"

# clients/conformance/vectors.json: deliveries signed by the npm standardwebhooks library. Each
# is verified with the clock at its `now`: a valid one returns the event, any other raises
# Cambio::WebhookVerificationError whose message contains messageIncludes.
class WebhookVectorsTest < Minitest::Test
  VECTORS = JSON.parse(File.read(CambioTest::VECTORS_PATH)).fetch("vectors")

  def self.verify(vector)
    cambio = Cambio::Client.new(api_key: "k", api_secret: "s", base_url: "https://api.example.com")
    cambio.webhooks.verify(vector["body"], vector["headers"], vector["secret"], now: Time.at(vector["now"]))
  end

  VECTORS.each do |vector|
    define_method("test_vector_#{vector["expect"]}_#{vector["name"].gsub(/[^a-z0-9]+/i, "_")}") do
      if vector["expect"] == "rejected"
        error = assert_raises(Cambio::WebhookVerificationError) { self.class.verify(vector) }
        assert_equal "WEBHOOK_VERIFICATION_FAILED", error.code
        assert_kind_of Cambio::CambioError, error
        assert_includes error.message.downcase, vector["messageIncludes"].downcase
        assert_raises(Cambio::WebhookVerificationError) { self.class.verify_signature(vector) }
        return
      end
      assert self.class.verify_signature(vector)
      event = self.class.verify(vector)
      assert_kind_of Cambio::WebhookEvent, event
      assert_equal vector["expect"] == "event", event.cambio_event?
      if vector["expect"] == "event"
        assert_equal vector["eventType"], event.type
      else
        header_id = vector["headers"].find { |name, _| name.casecmp?("webhook-id") }.last
        assert_equal [header_id, nil, nil, nil], [event.id, event.type, event.created_at, event.data]
      end
    end
  end

  def self.verify_signature(vector)
    Cambio::WebhookSignature.verify_signature(vector["body"], vector["headers"], vector["secret"], now: Time.at(vector["now"]))
  end

  def test_there_are_vectors_of_both_kinds
    assert_equal %w[event rejected unknown], VECTORS.map { |v| v["expect"] }.uniq.sort
  end
end

# verify beyond the vectors: the containers Ruby's frameworks hand over, and the messages that
# name the usual mistakes.
class WebhookVerifyTest < Minitest::Test
  VALID = WebhookVectorsTest::VECTORS.find { |v| v["name"] == "valid" }
  NOW = Time.at(VALID["now"])

  def verify(body = VALID["body"], headers = VALID["headers"], secret = VALID["secret"], **options)
    Cambio::WebhookSignature.verify(body, headers, secret, now: NOW, **options)
  end

  def test_returns_the_event_with_its_record_typed
    event = verify

    assert_kind_of Cambio::DepositCompletedEvent, event
    assert_equal "evt_01KBJ4Y1ZQ6W3M8N5P7R9T2V4X", event.id
    assert_equal "2026-01-01T00:00:00.000Z", event.created_at
    assert_kind_of Cambio::Deposit, event.data
    assert_equal "dep_01KBJ4XZ0A1B2C3D4E5F6G7H8J", event.data.id
    assert_equal "25.000000", event.data.credited_amount
    assert_equal "Olá, São Paulo — ünïcødé stays byte-exact", event.data.note # a field beyond the schema stays readable
    case event
    in { type: "deposit.completed", data: { status: "completed", reference: } }
      assert_equal "order-1", reference
    end
  end

  def test_takes_the_body_as_binary_bytes_or_an_io_and_rewinds_it
    assert_equal "deposit.completed", verify(VALID["body"].b).type
    io = StringIO.new(VALID["body"].b)
    assert_equal "deposit.completed", verify(io).type
    assert_equal 0, io.pos
  end

  def test_takes_a_rack_env_and_symbol_or_array_header_values
    env = { "rack.input" => StringIO.new, "HTTP_WEBHOOK_ID" => VALID["headers"]["webhook-id"],
            "HTTP_WEBHOOK_TIMESTAMP" => VALID["headers"]["webhook-timestamp"], "HTTP_WEBHOOK_SIGNATURE" => VALID["headers"]["webhook-signature"] }
    assert_equal "deposit.completed", verify(VALID["body"], env).type

    symbols = VALID["headers"].to_h { |k, v| [k.tr("-", "_").to_sym, [v]] }
    assert_equal "deposit.completed", verify(VALID["body"], symbols).type
  end

  def test_an_unknown_event_type_still_verifies_as_a_plain_webhook_event
    event = verify_signed("account.updated")

    assert_instance_of Cambio::WebhookEvent, event
    assert_equal "account.updated", event.type
    assert_equal "whk_1", event.data.webhook_id
  end

  def test_the_dashboards_test_event_is_typed
    event = verify_signed("webhook.test")

    assert_instance_of Cambio::WebhookTestEvent, event
    assert_equal "whk_1", event.data.webhook_id
    assert_equal "Sent from the dashboard", event.data.message
  end

  # Each deposit event whose deposit differs from a completed one in more than its status: the
  # event's class, the fields (the API's names) changed on the valid vector's deposit, and what the
  # typed Deposit's attributes then read.
  {
    "deposit.transfer_reversed" => [
      Cambio::DepositTransferReversedEvent,
      { "network" => "bsc", "address" => "0x52908400098527886E0F7030069857D2E4169EE7", "status" => "awaiting_payment", "receivedAmount" => "0.000000" },
      { network: "bsc", address: "0x52908400098527886E0F7030069857D2E4169EE7", received_amount: "0.000000" }
    ],
    "deposit.held" => [
      Cambio::DepositHeldEvent,
      { "status" => "held", "holdReason" => "address_frozen", "receivedAmount" => "25.000000", "creditedAmount" => "0.000000" },
      { status: "held", hold_reason: "address_frozen", received_amount: "25.000000", credited_amount: "0.000000" }
    ]
  }.each do |type, (event_class, changed, expected)|
    define_method("test_#{type.tr(".", "_")}_is_a_typed_deposit_event") do
      event = verify_signed(type, JSON.parse(VALID["body"])["data"].merge(changed))

      assert_instance_of event_class, event
      assert_kind_of Cambio::Deposit, event.data
      assert_equal expected, expected.keys.to_h { |attribute| [attribute, event.data.public_send(attribute)] }
    end
  end

  def test_a_json_number_in_an_event_is_a_big_decimal_never_a_float
    split = { "address" => "TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", "percent" => 33.33, "amount" => nil, "forwardedAmount" => "1.000000", "withdrawalId" => nil }
    event = verify_signed("deposit.completed", JSON.parse(VALID["body"])["data"].merge("split" => split))

    assert_instance_of BigDecimal, event.data.split.percent
    assert_equal BigDecimal("33.33"), event.data.split.percent
  end

  DASHBOARD_TEST_DATA = { "webhookId" => "whk_1", "url" => "https://example.com/hooks", "message" => "Sent from the dashboard" }.freeze

  # A body of `type` signed with a secret of our own, as Cambio signs it.
  def verify_signed(type, data = DASHBOARD_TEST_DATA)
    secret = "whsec_#{["k" * 24].pack("m0")}"
    body = JSON.generate("id" => "evt_1", "type" => type, "createdAt" => "2026-01-01T00:00:00.000Z", "data" => data)
    signature = ["#{OpenSSL::HMAC.digest("SHA256", "k" * 24, "evt_1.#{NOW.to_i}.#{body}")}"].pack("m0")
    verify(body, { "webhook-id" => "evt_1", "webhook-timestamp" => NOW.to_i.to_s, "webhook-signature" => "v1,#{signature}" }, secret)
  end

  def test_a_parsed_hash_is_refused_naming_the_raw_body
    error = assert_raises(Cambio::WebhookVerificationError) { verify(JSON.parse(VALID["body"])) }
    assert_match(/raw_post/, error.message)
  end

  def test_a_hash_turned_into_a_string_is_named
    error = assert_raises(Cambio::WebhookVerificationError) { verify(JSON.parse(VALID["body"]).to_s) }
    assert_match(/inspect|re-serialised|raw/, error.message)
  end

  def test_a_plain_wrong_signature_is_not_blamed_on_re_serialisation
    reordered = JSON.generate(JSON.parse(VALID["body"]).to_a.reverse.to_h)
    error = assert_raises(Cambio::WebhookVerificationError) { verify(reordered) }
    assert_match(/\ANo matching signature: the secret is not this webhook's.*raw_post/, error.message)
    refute_match(/re-serialised/, error.message)
  end

  def test_the_secret_is_whsec_or_the_raw_key_padded_or_not_and_a_missing_one_is_named
    assert_equal "deposit.completed", verify(VALID["body"], VALID["headers"], VALID["secret"].delete_prefix("whsec_")).type
    error = assert_raises(Cambio::WebhookVerificationError) { verify(VALID["body"], VALID["headers"], nil) }
    assert_match(/whsec_.*got nil/, error.message)
    error = assert_raises(Cambio::WebhookVerificationError) { verify(VALID["body"], VALID["headers"], "whsec_not base64!") }
    assert_match(/not base64/, error.message)
  end

  def test_the_tolerance_is_an_option
    stale = WebhookVectorsTest::VECTORS.find { |v| v["name"] == "stale timestamp" }
    event = Cambio::WebhookSignature.verify(stale["body"], stale["headers"], stale["secret"], now: Time.at(stale["now"]), tolerance: 400)
    assert_equal "deposit.completed", event.type
    assert_raises(Cambio::WebhookVerificationError) do
      Cambio::WebhookSignature.verify(VALID["body"], VALID["headers"], VALID["secret"], now: VALID["now"] + 11, tolerance: 10)
    end
  end

  def test_the_clock_defaults_to_now
    error = assert_raises(Cambio::WebhookVerificationError) { Cambio::WebhookSignature.verify(VALID["body"], VALID["headers"], VALID["secret"]) }
    assert_match(/too old: \d+ s before now, beyond the 300 s tolerance/, error.message)
  end

  def test_headers_that_are_not_a_container_are_named
    error = assert_raises(Cambio::WebhookVerificationError) { verify(VALID["body"], "webhook-id: x") }
    assert_match(/headers/, error.message)
  end
end
