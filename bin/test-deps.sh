#!/usr/bin/env bash
# What the test suites need from Debian, installed when this machine lacks it: Java (DynamoDB Local,
# the Java client), Chromium (the browser tests) and the toolchains of the official clients' own
# suites and of their release dry-run (clients/<language>, npm run clients:pack). `npm test` runs
# this first (its `pretest`), so the README's test line alone passes on a fresh machine; on one
# that has everything it only checks, in well under a second.
# The .NET SDK and its offline NuGet folder come with the machine.
set -uo pipefail

missing=()
command -v javac >/dev/null 2>&1 || missing+=(openjdk-17-jdk-headless)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -f /usr/share/java/junit-platform-console-standalone.jar ] || missing+=(junit5)
# The Java client's Maven build (clients/java/tools/pack.sh), offline from Debian's /usr/share/maven-repo.
command -v mvn >/dev/null 2>&1 || missing+=(maven)
for plugin in compiler resources jar source javadoc; do
  [ -d "/usr/share/maven-repo/org/apache/maven/plugins/maven-$plugin-plugin" ] || missing+=("libmaven-$plugin-plugin-java")
done
[ -d /usr/share/maven-repo/org/apache/maven/plugins/maven-surefire-plugin ] || missing+=(libsurefire-java)
command -v php >/dev/null 2>&1 || missing+=(php-cli)
php -m 2>/dev/null | grep -qi '^curl$' || missing+=(php-curl)
# Composer's artifact repository (the PHP package's release check) reads zips with ext-zip.
php -m 2>/dev/null | grep -qi '^zip$' || missing+=(php-zip)
command -v phpunit >/dev/null 2>&1 || missing+=(phpunit)
command -v composer >/dev/null 2>&1 || missing+=(composer)
command -v ruby >/dev/null 2>&1 || missing+=(ruby)
/usr/bin/python3 -c 'import setuptools, pytest, pip, wheel' >/dev/null 2>&1 || missing+=(python3-pytest python3-pip python3-setuptools python3-wheel)
/usr/bin/python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || missing+=(python3-venv)
# `npm run clients:pack` builds the Python sdist and wheel with `python3 -m build --no-isolation`.
/usr/bin/python3 -c 'import build' >/dev/null 2>&1 || missing+=(python3-build)

if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "test-deps: this machine lacks ${missing[*]}; install them as root (apt-get install ${missing[*]})" >&2
    exit 0
  fi
  echo "test-deps: installing what this machine lacks: ${missing[*]}"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; } \
    || echo "test-deps: WARNING: could not install ${missing[*]}; the suites that need them fail and say what is missing" >&2
fi
command -v dotnet >/dev/null 2>&1 || echo "test-deps: WARNING: the .NET SDK is missing; the .NET client's suite will fail" >&2
exit 0
