#!/usr/bin/env bash
# Installs the packed gem ($1/cambio-usdt-$CAMBIO_VERSION.gem) into a new, empty gem home with
# `gem install --local` (offline), and asks the API at CAMBIO_API_URL for the company's balance
# through it, with nothing else on the load path: the release check of test/clients/packages.test.ts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../release/consumer-check-start.sh"
consumer_check_start ruby 'cambio-usdt-%s.gem' "$@"

gem install --local --no-document --quiet --install-dir "$app/gems" "$artifact" >/dev/null
cd "$app"
GEM_HOME="$app/gems" GEM_PATH="$app/gems" RUBYOPT='' ruby -e '
  require "cambio"
  where = $LOADED_FEATURES.grep(%r{/cambio/client\.rb\z}).first
  abort "cambio loaded from #{where}, not the installed gem" unless where&.start_with?(ENV.fetch("GEM_HOME"))
  abort "version #{Cambio::VERSION}" unless Cambio::VERSION == ENV.fetch("CAMBIO_VERSION")
  cambio = Cambio::Client.new(api_key: ENV.fetch("CAMBIO_API_KEY"), api_secret: ENV.fetch("CAMBIO_API_SECRET"), base_url: ENV.fetch("CAMBIO_API_URL"))
  cambio.company.balance.balances.each { |entry| puts "cambio-usdt #{Cambio::VERSION}: #{entry.currency} available #{entry.available}" }
'
