# frozen_string_literal: true

require_relative "test_helper"

# Error families by status, exactly as the Node client's errorFromResponse; answers that are not
# the API's envelope become errors too, never a crash.
class ErrorsTest < Minitest::Test
  include CambioTest::Scripted

  # The family of each status, as clients.md gives them (InvalidRequest 400/403/413/415, ...).
  FAMILIES = {
    Cambio::InvalidRequestError => [400, 403, 413, 415],
    Cambio::AuthenticationError => [401],
    Cambio::NotFoundError => [404],
    Cambio::ConflictError => [409],
    Cambio::RefusedError => [422],
    Cambio::RateLimitError => [429],
    Cambio::ApiServerError => [500, 503],
  }.freeze

  # Every [status, code] an answer can carry, as openapi.json documents them (each response's
  # x-error-codes): every code of Cambio::ERROR_CODES, under each status it comes with.
  DOCUMENTED = begin
    operations = JSON.parse(File.read(File.expand_path("../../../openapi.json", __dir__))).fetch("paths").values.flat_map(&:values).grep(Hash)
    documented = operations.flat_map do |operation|
      operation.fetch("responses", {}).flat_map { |status, response| Array(response["x-error-codes"]).map { |code| [Integer(status), code] } }
    end
    documented.uniq.sort.freeze
  end

  def test_the_cases_are_every_documented_code
    assert_equal Cambio::ERROR_CODES.sort, DOCUMENTED.map(&:last).uniq.sort
    assert_equal FAMILIES.values.flatten.sort, DOCUMENTED.map(&:first).uniq.sort
  end

  def test_each_status_maps_to_its_family_with_code_status_request_id_and_details
    DOCUMENTED.each do |status, code|
      family = FAMILIES.find { |_, statuses| statuses.include?(status) }.first
      serve { |_req, _n| failure(status, code, "The message", details: { "why" => code }) }

      error = assert_raises(family, "#{status} #{code}") { client(max_retries: 0).company.get }

      assert_instance_of family, error
      assert_kind_of Cambio::CambioError, error
      assert_equal code, error.code
      assert_equal status, error.status
      assert_equal "req-1", error.request_id
      assert_equal({ "why" => code }, error.details)
      assert_equal "The message (#{code}, request req-1)", error.message
      @server.stop
    end
  end

  def test_the_mapping_function_directly
    assert_instance_of Cambio::InvalidRequestError, Cambio.error_from_response(418, { "success" => false, "error" => { "code" => "X" } }, nil)
    error = Cambio.error_from_response(502, nil, "r")
    assert_instance_of Cambio::ApiServerError, error
    assert_equal "INTERNAL_ERROR", error.code
    assert_equal "HTTP 502 (INTERNAL_ERROR, request r)", error.message
  end

  def test_every_family_is_a_cambio_error_and_a_standard_error
    [Cambio::InvalidRequestError, Cambio::AuthenticationError, Cambio::NotFoundError, Cambio::ConflictError, Cambio::RefusedError,
     Cambio::RateLimitError, Cambio::ApiServerError, Cambio::ConnectionError, Cambio::WebhookVerificationError,
     Cambio::InvalidResponseError].each do |family|
      assert_operator family, :<, Cambio::CambioError
    end
    assert_operator Cambio::CambioError, :<, StandardError
    assert_equal "WEBHOOK_VERIFICATION_FAILED", Cambio::WebhookVerificationError.new("x").code
  end

  def test_a_non_json_5xx_is_an_api_server_error_and_retried
    serve { |_req, n| n < 3 ? ScriptedServer.raw(502, "<html>Bad Gateway</html>", "Content-Type" => "text/html") : ok({ "id" => "cmp_1" }) }

    assert_equal "cmp_1", client.company.get.id
    assert_equal 3, @server.requests.size

    serve { |_req, _n| ScriptedServer.raw(502, "<html>Bad Gateway</html>", "Content-Type" => "text/html") }
    error = assert_raises(Cambio::ApiServerError) { client(max_retries: 1).company.get }
    assert_equal "INTERNAL_ERROR", error.code
    assert_equal 502, error.status
    assert_equal 2, @server.requests.size
  end

  def test_a_non_json_answer_is_an_invalid_response_error_not_retried
    serve { |_req, _n| ScriptedServer.raw(200, "<html>Welcome to nginx</html>", "Content-Type" => "text/html") }

    error = assert_raises(Cambio::InvalidResponseError) { client.company.get }

    assert_equal "INVALID_RESPONSE", error.code
    assert_equal 200, error.status
    assert_equal "req-1", error.request_id
    assert_match(/not JSON.*base_url/, error.message)
    assert_equal 1, @server.requests.size
  end

  def test_json_without_the_envelope_is_an_invalid_response_error
    [[200, { "id" => "cmp_1" }], [200, { "success" => true }], [200, []], [404, { "message" => "Not Found" }], [201, "text"]].each do |status, body|
      serve { |_req, _n| ScriptedServer.json(status, body) }

      error = assert_raises(Cambio::InvalidResponseError, body.inspect) { client.company.get }

      assert_equal "INVALID_RESPONSE", error.code
      assert_equal status, error.status
      @server.stop
    end
  end

  def test_an_empty_body_is_an_invalid_response_error
    serve { |_req, _n| ScriptedServer.raw(204, "") }

    assert_raises(Cambio::InvalidResponseError) { client.company.get }
  end

  def test_data_of_the_wrong_shape_is_an_invalid_response_error
    serve { |_req, _n| ok("a string") }
    error = assert_raises(Cambio::InvalidResponseError) { client.company.get }
    assert_match(/Expected a Company object/, error.message)
    @server.stop

    serve { |_req, _n| ok({ "id" => "cnv_1" }) }
    error = assert_raises(Cambio::InvalidResponseError) { client.conversions.list }
    assert_match(/Expected a list/, error.message)
  end
end
