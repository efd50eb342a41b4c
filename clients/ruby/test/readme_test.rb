# frozen_string_literal: true

require_relative "test_helper"
require_relative "support/fake_api"
require "bigdecimal"
require "stringio"

# README.md's examples are correct code: every ```ruby block compiles, and the blocks marked
# <!-- readme-test: run --> run in order, as written, against a stand-in API (test/support/fake_api.rb).
class ReadmeTest < Minitest::Test
  README = File.read(File.expand_path("../README.md", __dir__))
  BLOCKS = README.scan(/(<!-- readme-test: run -->\n)?```ruby\n(.*?)```/m).map { |mark, code| [!mark.nil?, code] }

  def test_every_ruby_block_compiles
    assert_operator BLOCKS.size, :>=, 8
    BLOCKS.each do |_, code|
      RubyVM::InstructionSequence.compile(code)
    rescue SyntaxError => e
      flunk("README block does not compile: #{e.message}\n#{code}")
    end
  end

  def test_the_runnable_blocks_run_against_a_stand_in_api
    api = FakeApi.new
    saved = %w[CAMBIO_API_KEY CAMBIO_API_SECRET CAMBIO_API_URL].to_h { |name| [name, ENV.fetch(name, nil)] }
    ENV.update("CAMBIO_API_KEY" => "ck_test_readme", "CAMBIO_API_SECRET" => "cs_test_readme", "CAMBIO_API_URL" => api.url)
    context = Object.new.instance_eval { binding }
    out = StringIO.new
    runnable = BLOCKS.select(&:first).map(&:last)
    assert_operator runnable.size, :>=, 5
    begin
      $stdout = out
      runnable.each_with_index do |code, index|
        context.eval(code, "README.md (runnable block #{index + 1})")
      end
    ensure
      $stdout = STDOUT
      ENV.update(saved)
      api.stop
    end

    printed = out.string
    assert_includes printed, "standard: 10 requests/s, bursts of 20"
    assert_includes printed, "pay 25.000000 USDT to TJRabPrwbZy45sbavfcjinPJC18kjpRTv8"
    assert_includes printed, "top up first (request req-"
    assert_includes printed, "NOT_FOUND 404 req-"
    assert_includes printed, "store this secret now"
    assert_equal true, context.local_variable_get(:again).last_response.idempotent_replayed?
    assert_equal 5, context.local_variable_get(:recent).size
    routes = api.requests.map { |r| "#{r.method} #{r.path.split("?").first}" }.uniq
    %w[/v1/company /v1/company/balance /v1/deposits /v1/withdrawals /v1/conversions/quote /v1/conversions /v1/webhooks].each do |path|
      assert(routes.any? { |route| route.end_with?(" #{path}") }, "the README calls #{path}")
    end
    %w[PUT DELETE].each { |verb| assert(routes.any? { |route| route.start_with?(verb) }, "the README calls #{verb}") }
  end

  def test_the_framework_examples_verify_the_raw_body
    rails = BLOCKS.map(&:last).find { |code| code.include?("ActionController") }
    sinatra = BLOCKS.map(&:last).find { |code| code.include?("sinatra") }
    assert_includes rails, "request.raw_post"
    assert_includes sinatra, "request.body.read"
  end
end
