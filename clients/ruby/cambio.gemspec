# frozen_string_literal: true

require_relative "lib/cambio/version"

Gem::Specification.new do |spec|
  # The name on RubyGems; code still says `require "cambio"` (clients/README.md: names).
  spec.name = "cambio-usdt"
  spec.version = Cambio::VERSION
  spec.summary = "Official Ruby client for the Cambio API (USDT on TRON and EVM networks, USDT to BRL conversions, signed webhooks)"
  spec.description = "Cambio::Client: company, deposits, withdrawals, conversions and webhooks, with retries that " \
                     "reuse one Idempotency-Key per call, typed records generated from openapi.json, auto-paging lists " \
                     "and Standard Webhooks signature verification. Standard library only."
  spec.authors = ["Cambio"]
  spec.license = "MIT"
  spec.homepage = "https://github.com/cambio-usdt/cambio/tree/main/clients/ruby#readme"
  spec.required_ruby_version = ">= 3.1"
  spec.files = Dir.glob("lib/**/*.rb", base: __dir__) + %w[README.md LICENSE cambio.gemspec]
  spec.require_paths = ["lib"]
  spec.metadata["rubygems_mfa_required"] = "true"
  spec.metadata["homepage_uri"] = spec.homepage
  spec.metadata["source_code_uri"] = "https://github.com/cambio-usdt/cambio/tree/main/clients/ruby"
  spec.metadata["changelog_uri"] = "https://github.com/cambio-usdt/cambio/blob/main/clients/CHANGELOG.md"
  spec.metadata["bug_tracker_uri"] = "https://github.com/cambio-usdt/cambio/issues"
end
