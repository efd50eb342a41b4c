#!/usr/bin/env bash
# Builds the Java client with Maven, offline, from the plugins Debian ships in /usr/share/maven-repo
# (bin/test-deps.sh installs them), and writes into the folder given: cambio-java-<version>.jar
# (Automatic-Module-Name com.cambio), -sources.jar and -javadoc.jar, each with META-INF/LICENSE, and
# the pom as cambio-java-<version>.pom.
#   bash tools/pack.sh <absolute out dir>      (from clients/java; npm run clients:pack calls it)
# CAMBIO_VERSION, when set, must be the version pom.xml says (the bump writes both). The tests are
# run-tests.sh's; Maven's build goes to a temp folder, never target/.
set -euo pipefail
out="${1:?usage: bash tools/pack.sh <absolute out dir>}"
cd "$(dirname "$0")/.."
repo=/usr/share/maven-repo

artifact=cambio-java
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
if [ -n "${CAMBIO_VERSION:-}" ] && [ "$CAMBIO_VERSION" != "$version" ]; then
  echo "pack: CAMBIO_VERSION is $CAMBIO_VERSION but pom.xml says $version" >&2
  exit 1
fi
for plugin in maven-compiler-plugin maven-resources-plugin maven-surefire-plugin maven-jar-plugin maven-source-plugin maven-javadoc-plugin; do
  [ -d "$repo/org/apache/maven/plugins/$plugin" ] || {
    echo "pack: $repo lacks $plugin: run bin/test-deps.sh as root (it installs Debian's maven and libmaven-*-plugin-java)" >&2
    exit 1
  }
done

build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
mvn -o -B -Dstyle.color=never -Dmaven.repo.local="$repo" -Dcambio.buildDirectory="$build" -DskipTests package >"$build/maven.log" 2>&1 \
  || { cat "$build/maven.log" >&2; echo "pack: the Maven build failed" >&2; exit 1; }

mkdir -p "$out"
for suffix in "" -sources -javadoc; do
  cp "$build/$artifact-$version$suffix.jar" "$out/"
done
cp pom.xml "$out/$artifact-$version.pom"
echo "pack: $out/$artifact-$version.jar (+ -sources.jar, -javadoc.jar, .pom)"
