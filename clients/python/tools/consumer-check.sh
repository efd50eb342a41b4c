#!/usr/bin/env bash
# Installs the packed wheel ($1/cambio_usdt-$CAMBIO_VERSION-*.whl) into a new virtual environment
# with pip, offline (--no-index), and asks the API at CAMBIO_API_URL for the company's balance
# through it: the release check of test/clients/packages.test.ts.
set -euo pipefail
dist="${1:?usage: tools/consumer-check.sh <absolute dist/clients folder>}"
: "${CAMBIO_VERSION:?}" "${CAMBIO_API_URL:?}" "${CAMBIO_API_KEY:?}" "${CAMBIO_API_SECRET:?}"
python="${PYTHON:-/usr/bin/python3}"
wheel="$dist/cambio_usdt-$CAMBIO_VERSION-py3-none-any.whl"
[ -f "$wheel" ] || { echo "python: no $wheel (run npm run clients:pack)" >&2; exit 1; }

app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
# The venv gets no pip of its own (ensurepip costs seconds): the machine's pip installs into it.
"$python" -m venv --without-pip "$app/.venv"
"$python" -m pip --python "$app/.venv/bin/python" install --quiet --no-index --no-cache-dir --disable-pip-version-check "$wheel"
cd "$app"
PYTHONDONTWRITEBYTECODE=1 .venv/bin/python - <<'PY'
import os
import sys

import cambio

assert cambio.__file__.startswith(sys.prefix), f"cambio loaded from {cambio.__file__}, not the venv"
assert cambio.__version__ == os.environ["CAMBIO_VERSION"], cambio.__version__
client = cambio.Cambio(api_key=os.environ["CAMBIO_API_KEY"], api_secret=os.environ["CAMBIO_API_SECRET"], base_url=os.environ["CAMBIO_API_URL"])
for entry in client.company.balance().balances:
    print(f"cambio-usdt {cambio.__version__}: {entry.currency} available {entry.available}")
PY
