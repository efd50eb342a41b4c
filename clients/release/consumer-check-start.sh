# shellcheck shell=bash
# How the consumer checks of node, python, ruby and php begin (their tools/consumer-check.sh, run
# by test/clients/packages.test.ts with CAMBIO_VERSION set to clients/VERSION). Sourced right after
# `set -euo pipefail`:
#
#   source "$(dirname "${BASH_SOURCE[0]}")/../../release/consumer-check-start.sh"
#   consumer_check_start <language> <artifact's file name, %s standing for the version> "$@"
#
# It refuses to go on without the dist/clients folder ($1 of the script), CAMBIO_VERSION and the
# API's URL, key and secret, then sets `artifact` (that file in the folder, which must exist) and
# `app` (a new folder for the consumer application, removed when the script exits). Java's and
# .NET's checks start otherwise: they also run after their own tools/pack.sh alone, reading the
# version from pom.xml or the .csproj when CAMBIO_VERSION is unset.
consumer_check_start() {
  local language="$1" name="$2" dist="${3:-}"
  [ -n "$dist" ] || { echo "usage: tools/consumer-check.sh <absolute dist/clients folder>" >&2; exit 1; }
  : "${CAMBIO_VERSION:?}" "${CAMBIO_API_URL:?}" "${CAMBIO_API_KEY:?}" "${CAMBIO_API_SECRET:?}"
  # shellcheck disable=SC2059 # the name is the format: its %s is the version
  artifact="$dist/$(printf "$name" "$CAMBIO_VERSION")"
  [ -f "$artifact" ] || { echo "$language: no $artifact (run npm run clients:pack)" >&2; exit 1; }
  app="$(mktemp -d)"
  trap 'rm -rf "$app"' EXIT
}
