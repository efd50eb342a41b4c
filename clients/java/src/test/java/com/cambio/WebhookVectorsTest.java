package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.WebhookVerificationException;
import com.cambio.internal.Json;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * clients/conformance/vectors.json: deliveries signed by the npm standardwebhooks library. Each is
 * verified with the clock at the vector's {@code now}: the valid ones return their event, the
 * others raise WebhookVerificationException (with {@code messageIncludes} in the message).
 */
class WebhookVectorsTest {
  static final CambioClient CAMBIO = CambioClient.builder().apiKey("ck_k").apiSecret("cs_s").baseUrl("https://api.example.com/v1").build();

  static Path vectorsPath() {
    String env = System.getenv("CAMBIO_CONFORMANCE_VECTORS");
    return env != null && !env.isEmpty() ? Path.of(env) : Path.of("../conformance/vectors.json");
  }

  @SuppressWarnings("unchecked")
  static Stream<Arguments> vectors() throws Exception {
    Map<String, Object> file = (Map<String, Object>) Json.parse(Files.readString(vectorsPath()));
    assertEquals(new BigDecimal(300), file.get("toleranceSeconds"));
    List<Object> vectors = (List<Object>) file.get("vectors");
    return vectors.stream().map(v -> {
      Map<String, Object> vector = (Map<String, Object>) v;
      String name = vector.get("expect") + ": " + vector.get("name");
      return Arguments.of(Named.of(name, vector));
    });
  }

  // One case per vector we know of, so a vector renamed or dropped from the file, or whose verdict
  // changed, fails here; everyVectorOfTheFile runs them all, including any added to the file later.
  @ParameterizedTest(name = "\"{0}\", valid: {1}")
  @CsvSource({
    "valid, true",
    "'several signatures, the second matches', true",
    "upper-case header names, true",
    "within tolerance, true",
    "tampered body, false",
    "re-serialised body, false",
    "wrong secret, false",
    "stale timestamp, false",
    "future timestamp, false",
    "id swapped, false",
    "unknown signature version, false",
    "missing signature header, false",
    "timestamp not a number, false",
  })
  @SuppressWarnings("unchecked")
  void namedVector(String name, boolean valid) throws Exception {
    Map<String, Object> vector = vectors()
        .map(a -> (Map<String, Object>) ((Named<?>) a.get()[0]).getPayload())
        .filter(v -> name.equals(v.get("name")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("vectors.json has no vector named \"" + name + "\""));
    assertEquals(valid, vector.get("valid"), name);
    check(vector);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vectors")
  void everyVectorOfTheFile(Map<String, Object> vector) {
    check(vector);
  }

  /** Verifies one vector; every assertion names it, as the JUnit XML names a parameterized case by its index only. */
  @SuppressWarnings("unchecked")
  static void check(Map<String, Object> vector) {
    String name = "vector \"" + vector.get("name") + "\"";
    String body = (String) vector.get("body");
    Map<String, String> headers = (Map<String, String>) (Map<String, ?>) vector.get("headers");
    String secret = (String) vector.get("secret");
    Instant now = Instant.ofEpochSecond(((BigDecimal) vector.get("now")).longValueExact());
    if ("rejected".equals(vector.get("expect"))) {
      WebhookVerificationException error = assertThrows(WebhookVerificationException.class, () -> CAMBIO.webhooks().verify(body, headers, secret, now), name);
      assertEquals("WEBHOOK_VERIFICATION_FAILED", error.getCode(), name);
      String expected = (String) vector.get("messageIncludes");
      assertTrue(error.getMessage().toLowerCase(Locale.ROOT).contains(expected.toLowerCase(Locale.ROOT)), name + ": " + error.getMessage());
      assertThrows(WebhookVerificationException.class, () -> CAMBIO.webhooks().verifySignature(body, headers, secret, now), name);
      return;
    }
    CAMBIO.webhooks().verifySignature(body, headers, secret, now);
    WebhookEvent event = CAMBIO.webhooks().verify(body, headers, secret, now);
    // The same through the byte[] overload.
    assertEquals(event, CAMBIO.webhooks().verify(body.getBytes(java.nio.charset.StandardCharsets.UTF_8), headers, secret, now), name);
    assertEquals("event".equals(vector.get("expect")), event.isCambioEvent(), name);
    if ("event".equals(vector.get("expect"))) {
      assertEquals(vector.get("eventType"), event.type(), name);
    } else {
      String headerId = WebhookVerifier.header(headers, "webhook-id");
      assertEquals(new WebhookEvent(headerId, null, null, null), event, name);
    }
  }
}
