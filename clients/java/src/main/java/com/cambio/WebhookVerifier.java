package com.cambio;

import com.cambio.exception.WebhookVerificationException;
import com.cambio.internal.Json;
import com.cambio.internal.JsonException;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com/), in two steps as the
 * reference libraries and Stripe's do it: first the signature and the timestamp, then the body.
 * The signature is base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")) over the
 * exact bytes Cambio sent, the key being the secret's base64 (after an optional {@code whsec_},
 * padded or not). A body that verifies is never reported as a bad signature, whatever it holds.
 */
final class WebhookVerifier {
  static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final String RAW_BODY_HINT =
      "Pass the raw request body exactly as received (a String or byte[], e.g. Spring's @RequestBody String raw or byte[] raw), "
          + "not an object parsed and serialised again (e.g. by Jackson's ObjectMapper).";

  private WebhookVerifier() {}

  /** Verifies (step one), then reads the body (step two); a verified body that is not a Cambio event comes back with a null type. */
  static WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret, Duration tolerance, Clock clock) {
    String id = verifySignature(rawBody, headers, secret, tolerance, clock);
    Object parsed;
    try {
      parsed = Json.parse(new String(rawBody, StandardCharsets.UTF_8));
    } catch (JsonException notJson) {
      return new WebhookEvent(id, null, null, null);
    }
    if (!(parsed instanceof Map<?, ?> event) || !(event.get("id") instanceof String eventId) || !(event.get("type") instanceof String type)
        || !(Json.frozen(event.get("data")) instanceof Map<?, ?> data)) {
      return new WebhookEvent(id, null, null, null);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> record = (Map<String, Object>) data;
    return new WebhookEvent(eventId, type, string(event.get("createdAt")), record);
  }

  /** Step one: throws, saying what failed, unless the delivery is signed with {@code secret} and fresh; returns its webhook-id. */
  static String verifySignature(byte[] rawBody, Map<String, ?> headers, String secret, Duration tolerance, Clock clock) {
    byte[] key = signingKey(secret);
    if (rawBody == null) throw new WebhookVerificationException("The body is null, not the request body. " + RAW_BODY_HINT);
    if (headers == null) throw new WebhookVerificationException("The headers are null: pass the request's headers (a Map, e.g. Spring's @RequestHeader Map<String, String> or HttpHeaders)");
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");
    List<String> missing = new ArrayList<>();
    if (id == null || id.isEmpty()) missing.add("webhook-id");
    if (timestamp == null || timestamp.isEmpty()) missing.add("webhook-timestamp");
    if (signatures == null || signatures.isEmpty()) missing.add("webhook-signature");
    if (!missing.isEmpty()) {
      throw new WebhookVerificationException("Missing " + String.join(", ", missing) + " header: is this a Cambio delivery? Pass the request's headers, unchanged.");
    }
    if (!timestamp.matches("\\d{1,15}")) {
      throw new WebhookVerificationException("webhook-timestamp is not unix seconds: \"" + timestamp.substring(0, Math.min(40, timestamp.length())) + "\"");
    }
    checkFreshness(Long.parseLong(timestamp), tolerance, clock);
    List<byte[]> candidates = new ArrayList<>();
    for (String entry : signatures.split(" ")) {
      if (!entry.startsWith("v1,")) continue;
      try {
        candidates.add(Base64.getDecoder().decode(entry.substring(3)));
      } catch (IllegalArgumentException notBase64) {
        // not a signature: it cannot match
      }
    }
    if (!anyMatches(candidates, sign(key, id, timestamp, rawBody))) {
      throw new WebhookVerificationException("No matching signature: " + diagnose(new String(rawBody, StandardCharsets.UTF_8), key, id, timestamp, candidates));
    }
    return id;
  }

  private static void checkFreshness(long seconds, Duration tolerance, Clock clock) {
    long toleranceSeconds = (tolerance == null ? DEFAULT_TOLERANCE : tolerance).getSeconds();
    long age = Math.floorDiv((clock == null ? Clock.systemUTC() : clock).millis(), 1000L) - seconds;
    String beyond = "beyond the " + toleranceSeconds + " s tolerance (a replayed or delayed delivery, or a wrong clock)";
    if (age > toleranceSeconds) throw new WebhookVerificationException("webhook-timestamp is too old: " + age + " s before now, " + beyond);
    if (-age > toleranceSeconds) throw new WebhookVerificationException("webhook-timestamp is in the future: " + -age + " s after now, " + beyond);
  }

  /** Constant time: every candidate is compared. */
  private static boolean anyMatches(List<byte[]> candidates, byte[] expected) {
    boolean matched = false;
    for (byte[] candidate : candidates) matched |= MessageDigest.isEqual(candidate, expected);
    return matched;
  }

  private static String string(Object value) {
    return value instanceof String s ? s : null;
  }

  /** Case-insensitive; a multi-valued header (List, array) is joined with spaces. */
  static String header(Map<String, ?> headers, String name) {
    for (Map.Entry<String, ?> entry : headers.entrySet()) {
      if (entry.getKey() == null || !entry.getKey().equalsIgnoreCase(name) || entry.getValue() == null) continue;
      Object value = entry.getValue();
      if (value instanceof Collection<?> values) {
        List<String> parts = new ArrayList<>();
        for (Object v : values) if (v != null) parts.add(v.toString());
        return String.join(" ", parts);
      }
      if (value instanceof Object[] values) {
        List<String> parts = new ArrayList<>();
        for (Object v : values) if (v != null) parts.add(v.toString());
        return String.join(" ", parts);
      }
      return value.toString();
    }
    return null;
  }

  /** The secret's base64 after an optional {@code whsec_}, padding optional (as the reference libraries take it). */
  private static byte[] signingKey(String secret) {
    if (secret == null) {
      throw new WebhookVerificationException("The secret is null: pass the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
    }
    // A secret read from an env file or pasted keeps a newline or spaces around it: stripped first,
    // then the prefix comes off (as the other clients do).
    String stripped = secret.strip();
    String encoded = stripped.startsWith("whsec_") ? stripped.substring("whsec_".length()) : stripped;
    if (encoded.isEmpty()) {
      throw new WebhookVerificationException("The secret is empty: pass the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
    }
    try {
      return Base64.getDecoder().decode(encoded);
    } catch (IllegalArgumentException e) {
      throw new WebhookVerificationException("The secret is not base64 after \"whsec_\": copy it whole, as POST /v1/webhooks answered it");
    }
  }

  private static byte[] sign(byte[] key, String id, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (NoSuchAlgorithmException | InvalidKeyException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Why no signature matched, as far as it can be known: the mistakes that leave a mark are named, anything else is not guessed at. */
  private static String diagnose(String body, byte[] key, String id, String timestamp, List<byte[]> candidates) {
    if (candidates.isEmpty()) return "webhook-signature holds no v1 signature (\"v1,<base64>\"), the only scheme Cambio signs with.";
    String compact;
    try {
      compact = Json.write(Json.parse(body));
    } catch (JsonException e) {
      if (body.startsWith("{") && body.contains("=")) {
        return "the body looks like a Java Map's toString(), not JSON: an object was turned into a string. " + RAW_BODY_HINT;
      }
      compact = body;
    }
    // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
    if (!compact.equals(body) && anyMatches(candidates, sign(key, id, timestamp, compact.getBytes(StandardCharsets.UTF_8)))) {
      return "the body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. " + RAW_BODY_HINT;
    }
    return "the secret is not this webhook's, or the body or webhook-id is not what was signed. " + RAW_BODY_HINT;
  }
}
