# frozen_string_literal: true

require_relative "test_helper"
require "pp"
require "logger"
require "stringio"

# Where the key and secret go: only to the base URL the integrator gave. The client names no host
# of its own; a URL that would carry the credentials in clear text over the network is refused
# before any request, and the secret never shows in inspect, pp, messages or logs.
class ConstructionTest < Minitest::Test
  include CambioTest::Scripted

  CREDENTIALS = { api_key: "ck_live_k", api_secret: "cs_live_s3cr3t-value" }.freeze
  WHERE = /`ApiUrl` output of your Cambio stack.*`npm start` prints/.freeze

  def refusal(**options)
    error = assert_raises(ArgumentError) { Cambio::Client.new(**CREDENTIALS, **options) }
    error.message
  end

  def test_base_url_is_required_and_the_message_says_where_it_comes_from
    assert_match WHERE, refusal
    assert_match WHERE, refusal(base_url: nil)
    assert_match WHERE, refusal(base_url: "")
    assert_match WHERE, refusal(base_url: "   ")
    assert_match(/needs base_url/, refusal)
  end

  def test_api_key_and_api_secret_are_required
    [{ api_key: nil }, { api_key: "" }, { api_secret: nil }, { api_secret: " " }, { api_key: 42 }].each do |bad|
      options = CREDENTIALS.merge(base_url: "https://api.example.com").merge(bad)
      error = assert_raises(ArgumentError) { Cambio::Client.new(**options) }
      assert_match(/needs #{bad.keys.first}/, error.message)
    end
    error = assert_raises(ArgumentError) { Cambio::Client.new(base_url: "https://api.example.com") }
    assert_match(/needs api_key/, error.message)
  end

  def test_base_url_must_be_an_http_or_https_url
    ["sandbox", "api.example.com/v1", "ftp://127.0.0.1/v1", "file:///tmp/v1", "javascript:alert(1)", "http://", "https:// spaces .com"].each do |base_url|
      message = refusal(base_url: base_url)
      assert_match(/must be an http\(s\) URL/, message, base_url)
      assert_match WHERE, message, base_url
    end
  end

  def test_plain_http_is_refused_unless_loopback
    ["http://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox/v1", "http://10.0.0.5:3000/v1", "http://192.168.1.10:3000",
     "http://localhost.example.com:3000", "http://127.0.0.1.nip.io:3000", "http://[::2]:3000", "http://0.0.0.0:3000"].each do |base_url|
      assert_match(/plain http.*clear text.*loopback/, refusal(base_url: base_url), base_url)
    end
  end

  def test_https_anywhere_and_http_on_loopback_are_accepted_with_or_without_v1
    accepted = ->(base_url) { Cambio::Client.new(**CREDENTIALS, base_url: base_url).base_url }
    stage = "https://abc123defg.execute-api.us-east-1.amazonaws.com/sandbox"
    assert_equal stage, accepted.call("#{stage}/v1")
    assert_equal stage, accepted.call("#{stage}/v1/")
    assert_equal stage, accepted.call(stage)
    assert_equal "http://127.0.0.1:3000", accepted.call("http://127.0.0.1:3000/v1")
    assert_equal "http://127.8.9.10:3000", accepted.call("http://127.8.9.10:3000")
    assert_equal "http://localhost:3000", accepted.call("http://localhost:3000/v1")
    assert_equal "http://[::1]:3000", accepted.call("http://[::1]:3000/v1")
    assert_equal "https://api.example.com", accepted.call("HTTPS://API.Example.com:443/v1")
  end

  def test_base_url_carries_no_credentials_query_or_fragment
    ["https://user:pass@example.com/v1", "https://example.com/v1?stage=sandbox", "https://example.com/v1#x"].each do |base_url|
      message = refusal(base_url: base_url)
      assert_match(/no credentials, query or fragment/, message, base_url)
      refute_includes message, "pass", "the URL's password is not repeated"
    end
  end

  def test_options_default_to_2_retries_and_30_s_and_are_checked
    cambio = Cambio::Client.new(**CREDENTIALS, base_url: "https://api.example.com")
    assert_equal 2, cambio.max_retries
    assert_equal 30, cambio.timeout
    assert_equal 0.5, cambio.initial_delay
    assert_equal 5.0, cambio.max_delay
    assert_equal 60, cambio.max_retry_after
    assert_match(/max_retries/, refusal(base_url: "https://api.example.com", max_retries: -1))
    assert_match(/timeout/, refusal(base_url: "https://api.example.com", timeout: 0))
  end

  def test_credentials_with_a_line_break_are_refused_without_echoing_them
    message = assert_raises(ArgumentError) { Cambio::Client.new(api_key: "k", api_secret: "s3cr3t\n", base_url: "https://api.example.com") }.message
    assert_match(/api_secret contains a line break/, message)
    refute_includes message, "s3cr3t"
  end

  def test_the_secret_never_shows_in_inspect_to_s_pp_or_instance_variables
    cambio = Cambio::Client.new(**CREDENTIALS, base_url: "https://api.example.com")
    secret = CREDENTIALS[:api_secret]
    shown = [cambio.inspect, cambio.to_s, PP.pp(cambio, +""), cambio.deposits.inspect, PP.pp(cambio.webhooks, +""),
             cambio.instance_variables.map { |name| cambio.instance_variable_get(name).inspect }.join]
    shown.each { |text| refute_includes text, secret }
    assert_match(/base_url="https:\/\/api.example.com"/, cambio.inspect)
    assert_raises(TypeError) { Marshal.dump(cambio) }
  end

  def test_the_secret_never_shows_in_errors_or_net_http_debug_output
    serve { |_req, n| n == 1 ? failure(401, "AUTH_FAILED", "Authentication failed: invalid API key or secret") : ScriptedServer.raw(502, "<html>bad gateway</html>") }
    cambio = client(api_secret: "cs_live_s3cr3t-value", max_retries: 0)

    errors = [assert_raises(Cambio::AuthenticationError) { cambio.company.get }, assert_raises(Cambio::ApiServerError) { cambio.company.get }]
    @server.stop
    errors << assert_raises(Cambio::ConnectionError) { cambio.company.get }

    errors.each do |error|
      refute_includes error.message, "s3cr3t"
      refute_includes error.full_message, "s3cr3t"
      refute_includes error.inspect, "s3cr3t"
    end
  end

  def test_every_request_carries_the_credentials_user_agent_and_json_headers
    serve { |_req, _n| ok({ "id" => "cmp_1" }) }

    client.company.get
    client.deposits.create(method: "usdt", network: "tron", reference: "order-1")

    get, post = @server.requests
    assert_equal "ck_test_k", get["X-Api-Key"]
    assert_equal "cs_test_s", get["X-Api-Secret"]
    assert_equal "application/json", get["Accept"]
    assert_equal "cambio-ruby/#{Cambio::VERSION} ruby/#{RUBY_VERSION}", get["User-Agent"]
    assert_nil get["Content-Type"]
    assert_equal "GET /v1/company", "#{get.method} #{get.path}"
    assert_equal "application/json", post["Content-Type"]
    assert_equal "POST /v1/deposits", "#{post.method} #{post.path}"
  end

  def test_the_version_is_read_from_one_place
    assert_equal File.read(File.expand_path("../../VERSION", __dir__)).strip, Cambio::VERSION, "clients/VERSION"
    assert_equal "cambio-ruby/#{Cambio::VERSION} ruby/#{RUBY_VERSION}", Cambio::Client::USER_AGENT
    spec = Gem::Specification.load(File.expand_path("../cambio.gemspec", __dir__))
    assert_equal Cambio::VERSION, spec.version.to_s
    assert_equal "cambio-usdt", spec.name
    assert_equal "MIT", spec.license
    assert_includes spec.files, "LICENSE"
  end
end
