# frozen_string_literal: true

# The official Ruby client for the Cambio API (USDT on TRON and EVM networks, USDT -> BRL
# conversions, signed webhooks). Standard library only. See README.md.
#
#   require "cambio"
#   cambio = Cambio::Client.new(api_key: KEY, api_secret: SECRET, base_url: API_URL)
require_relative "cambio/version"
require_relative "cambio/errors"
require_relative "cambio/exact_json"
require_relative "cambio/record"
require_relative "cambio/webhook_event"
require_relative "cambio/types"
require_relative "cambio/page"
require_relative "cambio/webhook_signature"
require_relative "cambio/resources"
require_relative "cambio/client"
