#!/usr/bin/env bash
# Installs the packed wheel ($1/cambio_usdt-$CAMBIO_VERSION-*.whl) into a new virtual environment
# with pip, offline (--no-index), and asks the API at CAMBIO_API_URL for the company's balance
# through it: the release check of test/clients/packages.test.ts.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../../release/consumer-check-start.sh"
consumer_check_start python 'cambio_usdt-%s-py3-none-any.whl' "$@"
python="${PYTHON:-/usr/bin/python3}"

# The venv gets no pip of its own (ensurepip costs seconds): the machine's pip installs into it.
"$python" -m venv --without-pip "$app/.venv"
"$python" -m pip --python "$app/.venv/bin/python" install --quiet --no-index --no-cache-dir --disable-pip-version-check "$artifact"
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
