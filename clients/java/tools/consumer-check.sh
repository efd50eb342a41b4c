#!/usr/bin/env bash
# Compiles a one-class application against the packed jar alone (as a Gradle `files(…)` dependency or
# a jar on the classpath is used), runs it, and it gets the company's balance from CAMBIO_API_URL with
# CAMBIO_API_KEY / CAMBIO_API_SECRET ("… available …"). Also checks the jar's module name.
#   bash tools/consumer-check.sh <absolute out dir>   (after tools/pack.sh; npm run clients:pack calls it)
set -euo pipefail
out="${1:?usage: bash tools/consumer-check.sh <absolute out dir>}"
: "${CAMBIO_API_URL:?}" "${CAMBIO_API_KEY:?}" "${CAMBIO_API_SECRET:?}"
cd "$(dirname "$0")/.."
version="${CAMBIO_VERSION:-$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)}"
jar="$out/cambio-java-$version.jar"
[ -f "$jar" ] || { echo "consumer-check: no $(basename "$jar") in $out (run tools/pack.sh first)" >&2; exit 1; }

module=$(jar --describe-module --file "$jar" | sed -n 's/^\(com\.cambio\)@.* automatic$/\1/p')
[ "$module" = com.cambio ] || { echo "consumer-check: the jar's module is not com.cambio (Automatic-Module-Name)" >&2; exit 1; }

app=$(mktemp -d)
trap 'rm -rf "$app"' EXIT
cat > "$app/Consumer.java" <<'JAVA'
import com.cambio.CambioClient;
import com.cambio.model.Balance;
import java.util.stream.Collectors;

public class Consumer {
  public static void main(String[] args) {
    CambioClient cambio = CambioClient.builder()
        .apiKey(System.getenv("CAMBIO_API_KEY"))
        .apiSecret(System.getenv("CAMBIO_API_SECRET"))
        .baseUrl(System.getenv("CAMBIO_API_URL"))
        .build();
    Balance balance = cambio.company().balance();
    String amounts = balance.balances().stream()
        .map(b -> b.available() + " " + b.currency())
        .collect(Collectors.joining(", "));
    System.out.println("cambio-java " + CambioClient.VERSION
        + " on Java " + Runtime.version().feature() + ": " + amounts + " available");
  }
}
JAVA
javac -Xlint:all -Werror --release 17 -cp "$jar" -d "$app/classes" "$app/Consumer.java"
java -cp "$jar:$app/classes" Consumer
