# frozen_string_literal: true

$LOAD_PATH.unshift(File.expand_path("../lib", __dir__))
$LOAD_PATH.unshift(__dir__)

require "minitest/autorun"
require_relative "minitest/junit_plugin"
# Registered here too, so the report is written however the suite is started (Minitest.run calls
# plugin_junit_options and plugin_junit_init for every name in extensions).
Minitest.extensions << "junit" unless Minitest.extensions.include?("junit")

require "cambio"
require "json"
require "pp"
require_relative "support/scripted_server"

module CambioTest
  VECTORS_PATH = ENV.fetch("CAMBIO_CONFORMANCE_VECTORS", nil).then do |path|
    path && !path.empty? ? path : File.expand_path("../../conformance/vectors.json", __dir__)
  end

  # Short backoff so the retry tests do not wait long.
  FAST = { initial_delay: 0.01, max_delay: 0.04 }.freeze

  WITHDRAWAL = {
    "id" => "wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5",
    "method" => "usdt",
    "reference" => "payout-1",
    "network" => "tron",
    "address" => "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK",
    "amount" => "5.000000",
    "fee" => "1.000000",
    "status" => "pending",
    "txHash" => nil,
    "deliveredAmount" => nil,
    "networkCost" => nil,
    "failureReason" => nil,
    "createdAt" => "2026-01-15T12:00:00.000Z",
    "updatedAt" => "2026-01-15T12:00:00.000Z",
    "completedAt" => nil,
  }.freeze

  WITHDRAWAL_PARAMS = {
    method: "usdt", network: "tron", address: "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", amount: "5", reference: "payout-1",
  }.freeze

  UUID_V4 = /\A[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\z/.freeze

  # Helpers for tests against a ScriptedServer.
  module Scripted
    def teardown
      @server&.stop
      super
    end

    def serve(&script)
      @server = ScriptedServer.new(&script)
    end

    def client(**options)
      Cambio::Client.new(api_key: "ck_test_k", api_secret: "cs_test_s", base_url: @server.url, **FAST, **options)
    end

    def ok(data, status: 200, headers: {}, pagination: nil)
      body = { "success" => true, "data" => data }
      body["pagination"] = pagination if pagination
      ScriptedServer.json(status, body, headers)
    end

    def failure(status, code, message = code, details: nil, headers: {})
      ScriptedServer.json(status, { "success" => false, "error" => { "code" => code, "message" => message, "details" => details } }, headers)
    end
  end
end
