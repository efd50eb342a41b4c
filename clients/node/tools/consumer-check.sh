#!/usr/bin/env bash
# Installs the packed tarball ($1/cambio-usdt-$CAMBIO_VERSION.tgz) into a new application with
# `npm install --offline` (the client has no dependency to fetch), and asks the API at CAMBIO_API_URL
# for the company's balance through it, from an ES module that also require()s it and checks both
# give the one same library: the release check of test/clients/packages.test.ts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../release/consumer-check-start.sh"
consumer_check_start node 'cambio-usdt-%s.tgz' "$@"

cd "$app"
echo '{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module" }' >package.json
npm install --offline --no-audit --no-fund --ignore-scripts --silent "$artifact"
cat >app.js <<'JS'
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Cambio, VERSION } from 'cambio-usdt';

const require = createRequire(import.meta.url);
const where = require.resolve('cambio-usdt');
if (!where.startsWith(fileURLToPath(new URL('node_modules/cambio-usdt/', import.meta.url)))) throw new Error(`loaded from ${where}`);
if (require('cambio-usdt').Cambio !== Cambio) throw new Error('require() and import gave two copies of the library');
if (VERSION !== process.env.CAMBIO_VERSION) throw new Error(`version ${VERSION}`);
const cambio = new Cambio({ apiKey: process.env.CAMBIO_API_KEY, apiSecret: process.env.CAMBIO_API_SECRET, baseUrl: process.env.CAMBIO_API_URL });
for (const entry of (await cambio.company.balance()).balances) console.log(`cambio-usdt ${VERSION}: ${entry.currency} available ${entry.available}`);
JS
node app.js
