#!/usr/bin/env bash
# The Python client's release artifacts: the sdist and the wheel built from that sdist (so the sdist
# is proven to build), into the folder given ($1). Offline, with the machine's setuptools and wheel
# (--no-isolation: nothing is fetched from the package index). Built from a copy of the package's
# files, so neither build/ nor *.egg-info lands in the repository. Run by `npm run clients:pack`
# (clients/release/pack.ts) from clients/python.
set -euo pipefail
out="${1:?usage: tools/pack.sh <absolute output folder>}"
python="${PYTHON:-/usr/bin/python3}"
"$python" -c 'import build' 2>/dev/null || { echo "python: $python has no 'build' module (Debian: python3-build)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R pyproject.toml README.md LICENSE cambio "$work/"
find "$work" -name __pycache__ -prune -exec rm -rf {} +
if ! (cd "$work" && "$python" -m build --no-isolation --sdist --wheel --outdir "$out" . >"$work/build.log" 2>&1); then
  cat "$work/build.log" >&2
  exit 1
fi
