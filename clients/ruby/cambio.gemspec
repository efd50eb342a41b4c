# frozen_string_literal: true

require_relative "lib/cambio/version"

Gem::Specification.new do |spec|
  spec.name = "cambio"
  spec.version = Cambio::VERSION
  spec.summary = "Official Ruby client for the Cambio API (USDT on TRON, USDT to BRL conversions, signed webhooks)"
  spec.description = "Cambio::Client: company, deposits, withdrawals, conversions and webhooks, with retries that " \
                     "reuse one Idempotency-Key per call, typed records generated from openapi.json, auto-paging lists " \
                     "and Standard Webhooks signature verification. Standard library only."
  spec.authors = ["Cambio"]
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir.glob("lib/**/*.rb", base: __dir__) + %w[README.md cambio.gemspec]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
end
