#!/usr/bin/env bash
# Installs the packed zip ($1/cambio-usdt-client-$CAMBIO_VERSION.zip) into a new application with
# `composer install` from an `artifact` repository (Packagist turned off, the network disabled), and
# asks the API at CAMBIO_API_URL for the company's balance through Composer's autoloader alone: the
# release check of test/clients/packages.test.ts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../release/consumer-check-start.sh"
consumer_check_start php 'cambio-usdt-client-%s.zip' "$@"

# An artifact repository reads every archive in its folder: this one holds only the client's.
mkdir "$app/artifacts"
cp "$artifact" "$app/artifacts/"
cat >"$app/composer.json" <<JSON
{
    "name": "example/consumer",
    "repositories": [{ "packagist.org": false }, { "type": "artifact", "url": "artifacts/" }],
    "require": { "cambio-usdt/client": "$CAMBIO_VERSION" }
}
JSON
cat >"$app/app.php" <<'PHP'
<?php
require __DIR__ . '/vendor/autoload.php';

$where = (new ReflectionClass(Cambio\CambioClient::class))->getFileName();
if (!str_starts_with($where, __DIR__ . '/vendor/cambio-usdt/client/')) {
    fwrite(STDERR, "Cambio loaded from $where, not the installed package\n");
    exit(1);
}
if (Cambio\CambioClient::VERSION !== getenv('CAMBIO_VERSION')) {
    fwrite(STDERR, 'version ' . Cambio\CambioClient::VERSION . "\n");
    exit(1);
}
$cambio = new Cambio\CambioClient(apiKey: getenv('CAMBIO_API_KEY'), apiSecret: getenv('CAMBIO_API_SECRET'), baseUrl: getenv('CAMBIO_API_URL'));
foreach ($cambio->company->balance()->balances as $entry) {
    echo 'cambio-usdt/client ', Cambio\CambioClient::VERSION, ": {$entry->currency} available {$entry->available}\n";
}
PHP
cd "$app"
COMPOSER_HOME="$app/.composer" COMPOSER_DISABLE_NETWORK=1 composer install --no-plugins --no-interaction --no-progress --quiet
php app.php
