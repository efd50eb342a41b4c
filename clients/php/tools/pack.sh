#!/usr/bin/env bash
# The PHP client's release artifact: the zip `composer archive` makes of this folder (composer.json at
# its root; tests and tools left out by composer.json's "archive" section), written into the folder
# given ($1) as cambio-usdt-client-<version>.zip. Composer installs it from an `artifact` repository;
# Packagist itself reads a git repository instead (clients/README.md: releasing). Offline: Composer
# only reads this folder. Run by `npm run clients:pack` (clients/release/pack.ts) from clients/php.
set -euo pipefail
out="${1:?usage: tools/pack.sh <absolute output folder>}"
version="$(php -r 'echo json_decode(file_get_contents("composer.json"), true)["version"];')"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
COMPOSER_HOME="$home" COMPOSER_DISABLE_NETWORK=1 composer archive --no-plugins --no-interaction --quiet \
  --format=zip --dir="$out" --file="cambio-usdt-client-$version"
