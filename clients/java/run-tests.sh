#!/bin/sh
# Compiles the client and its tests with plain javac into build/ (git-ignored) and runs every JUnit 5
# test with the console launcher, which writes Surefire-style JUnit XML into the folder given as $1
# (default build/test-reports). Needs a JDK 17 and Debian's junit5 package; no network, no Maven.
#   ./run-tests.sh [report-dir]
set -eu
cd "$(dirname "$0")"
REPORTS="${1:-build/test-reports}"
JUNIT="${JUNIT_CONSOLE_JAR:-/usr/share/java/junit-platform-console-standalone.jar}"
rm -rf build/classes build/test-classes
mkdir -p build/classes build/test-classes "$REPORTS"
javac -encoding UTF-8 -Xlint:all -Werror --release 17 -d build/classes $(find src/main/java -name '*.java')
javac -encoding UTF-8 --release 17 -d build/test-classes -cp "build/classes:$JUNIT" $(find src/test/java -name '*.java')
exec java -jar "$JUNIT" --disable-banner --details=summary \
  --class-path build/classes:build/test-classes --scan-class-path build/test-classes \
  --reports-dir "$REPORTS"
