#!/usr/bin/env bash
# Packs the Cambio NuGet package (netstandard2.0, net8.0, net10.0; LICENSE, README, Source Link) and
# its symbols into the folder given: Cambio.<version>.nupkg and Cambio.<version>.snupkg.
#   bash tools/pack.sh <absolute out dir>      (from clients/dotnet; npm run clients:pack calls it)
# CAMBIO_VERSION, when set, must be the version src/Cambio/Cambio.csproj says (the bump writes both).
# Restores from nuget.config's sources; the build's obj/ and bin/ go to a temp folder, so a pack never
# races the test suite's build of the same project.
set -euo pipefail
out="${1:?usage: bash tools/pack.sh <absolute out dir>}"
cd "$(dirname "$0")/.."

version=$(sed -n 's:.*<Version>\(.*\)</Version>.*:\1:p' src/Cambio/Cambio.csproj)
if [ -n "${CAMBIO_VERSION:-}" ] && [ "$CAMBIO_VERSION" != "$version" ]; then
  echo "pack: CAMBIO_VERSION is $CAMBIO_VERSION but src/Cambio/Cambio.csproj says $version" >&2
  exit 1
fi

export DOTNET_NOLOGO=1 DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1 MSBUILDDISABLENODEREUSE=1
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
mkdir -p "$out"
# ContinuousIntegrationBuild: deterministic paths in the pdbs (/_/…), which Source Link maps to the commit.
dotnet pack src/Cambio -c Release -o "$out" --artifacts-path "$build" -p:ContinuousIntegrationBuild=true -v:q -nologo

for file in "Cambio.$version.nupkg" "Cambio.$version.snupkg"; do
  [ -f "$out/$file" ] || { echo "pack: no $file in $out" >&2; exit 1; }
done
echo "pack: $out/Cambio.$version.nupkg (+ .snupkg)"
