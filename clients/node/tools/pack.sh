#!/usr/bin/env bash
# The Node client's release artifact: the tarball `npm pack` makes (its prepack builds dist/), written
# into the folder given ($1) as cambio-usdt-<version>.tgz. Built from a copy of the package's files
# (with the repository's node_modules for TypeScript and esbuild), so clients/node/dist is left to
# the client's own tests. Run by `npm run clients:pack` (clients/release/pack.ts) from clients/node.
set -euo pipefail
out="${1:?usage: tools/pack.sh <absolute output folder>}"
modules="$(cd ../.. && pwd)/node_modules"
[ -d "$modules/typescript" ] || { echo "node: $modules has no typescript (npm ci at the repository's root)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R package.json tsconfig.json README.md LICENSE src scripts "$work/"
ln -s "$modules" "$work/node_modules"
(cd "$work" && npm pack --silent --pack-destination "$out" >/dev/null)
