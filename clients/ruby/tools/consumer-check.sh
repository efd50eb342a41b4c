#!/usr/bin/env bash
# Installs the packed gem ($1/cambio-usdt-$CAMBIO_VERSION.gem) into a new, empty gem home with
# `gem install --local` (offline), and asks the API at CAMBIO_API_URL for the company's balance
# through it, with nothing else on the load path: the release check of test/clients/packages.test.ts.
set -euo pipefail
dist="${1:?usage: tools/consumer-check.sh <absolute dist/clients folder>}"
: "${CAMBIO_VERSION:?}" "${CAMBIO_API_URL:?}" "${CAMBIO_API_KEY:?}" "${CAMBIO_API_SECRET:?}"
gem="$dist/cambio-usdt-$CAMBIO_VERSION.gem"
[ -f "$gem" ] || { echo "ruby: no $gem (run npm run clients:pack)" >&2; exit 1; }

app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
gem install --local --no-document --quiet --install-dir "$app/gems" "$gem" >/dev/null
cd "$app"
GEM_HOME="$app/gems" GEM_PATH="$app/gems" RUBYOPT='' ruby -e '
  require "cambio"
  where = $LOADED_FEATURES.grep(%r{/cambio/client\.rb\z}).first
  abort "cambio loaded from #{where}, not the installed gem" unless where&.start_with?(ENV.fetch("GEM_HOME"))
  abort "version #{Cambio::VERSION}" unless Cambio::VERSION == ENV.fetch("CAMBIO_VERSION")
  cambio = Cambio::Client.new(api_key: ENV.fetch("CAMBIO_API_KEY"), api_secret: ENV.fetch("CAMBIO_API_SECRET"), base_url: ENV.fetch("CAMBIO_API_URL"))
  cambio.company.balance.balances.each { |entry| puts "cambio-usdt #{Cambio::VERSION}: #{entry.currency} available #{entry.available}" }
'
