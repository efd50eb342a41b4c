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
 * Standard Webhooks verification (https://www.standardwebhooks.com/): the signature is
 * base64(HMAC-SHA256(key, "{webhook-id}.{webhook-timestamp}.{body}")) over the exact bytes
 * Cambio sent, the key being the base64-decoded part of the secret after {@code whsec_}.
 */
final class WebhookVerifier {
  static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  private static final String RAW_BODY_HINT =
      "Pass the raw request body exactly as received (a String or byte[], e.g. Spring's @RequestBody String raw or byte[] raw), "
          + "not an object parsed and serialised again (e.g. by Jackson's ObjectMapper).";

  private WebhookVerifier() {}

  static WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret, Duration tolerance, Clock clock) {
    if (rawBody == null) throw new WebhookVerificationException("The body is null, not the request body. " + RAW_BODY_HINT);
    if (headers == null) throw new WebhookVerificationException("The headers are null: pass the request's headers (a Map, e.g. Spring's @RequestHeader Map<String, String> or HttpHeaders)");
    String id = header(headers, "webhook-id");
    String timestamp = header(headers, "webhook-timestamp");
    String signatures = header(headers, "webhook-signature");
    if (id == null || timestamp == null || signatures == null || id.isEmpty() || timestamp.isEmpty() || signatures.isEmpty()) {
      throw new WebhookVerificationException("Missing webhook-id, webhook-timestamp or webhook-signature header: is this a Cambio delivery?");
    }
    long seconds;
    try {
      if (!timestamp.matches("\\d{1,15}")) throw new NumberFormatException();
      seconds = Long.parseLong(timestamp);
    } catch (NumberFormatException e) {
      throw new WebhookVerificationException("webhook-timestamp is not unix seconds");
    }
    long toleranceSeconds = (tolerance == null ? DEFAULT_TOLERANCE : tolerance).getSeconds();
    long now = Math.floorDiv((clock == null ? Clock.systemUTC() : clock).millis(), 1000L);
    if (Math.abs(now - seconds) > toleranceSeconds) {
      throw new WebhookVerificationException(
          "webhook-timestamp is " + (now - seconds) + " s from now, beyond the " + toleranceSeconds + " s tolerance: a replayed or delayed delivery, or a wrong clock");
    }
    byte[] key = signingKey(secret);
    List<byte[]> candidates = new ArrayList<>();
    for (String entry : signatures.split(" ")) {
      if (!entry.startsWith("v1,")) continue;
      try {
        candidates.add(Base64.getDecoder().decode(entry.substring(3)));
      } catch (IllegalArgumentException notBase64) {
        // not a signature: it cannot match
      }
    }
    byte[] expected = sign(key, id, timestamp, rawBody);
    boolean matched = false;
    for (byte[] candidate : candidates) matched |= MessageDigest.isEqual(candidate, expected);
    String body = new String(rawBody, StandardCharsets.UTF_8);
    if (!matched) throw new WebhookVerificationException("No signature matches. " + diagnose(body, key, id, timestamp, candidates));
    Object parsed;
    try {
      parsed = Json.parse(body);
    } catch (JsonException e) {
      throw new WebhookVerificationException("The signature matches but the body is not JSON");
    }
    if (!(parsed instanceof Map<?, ?> event)) throw new WebhookVerificationException("The signature matches but the body is not a JSON object");
    Object data = Json.frozen(event.get("data"));
    @SuppressWarnings("unchecked")
    Map<String, Object> dataMap = data instanceof Map<?, ?> m ? (Map<String, Object>) m : null;
    return new WebhookEvent(string(event.get("id")), string(event.get("type")), string(event.get("createdAt")), dataMap);
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

  private static byte[] signingKey(String secret) {
    if (secret == null || !secret.startsWith("whsec_")) {
      throw new WebhookVerificationException("The secret must be the webhook's signing secret, \"whsec_…\", as POST /v1/webhooks answered it");
    }
    try {
      byte[] key = Base64.getDecoder().decode(secret.substring("whsec_".length()));
      if (key.length == 0) throw new IllegalArgumentException();
      return key;
    } catch (IllegalArgumentException e) {
      throw new WebhookVerificationException("The secret is not \"whsec_\" followed by base64: use the webhook's signing secret as POST /v1/webhooks answered it");
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

  /** Names the usual mistake when the body looks like it was parsed and serialised again. */
  private static String diagnose(String body, byte[] key, String id, String timestamp, List<byte[]> candidates) {
    Object parsed;
    try {
      parsed = Json.parse(body);
    } catch (JsonException e) {
      if (body.startsWith("{") && body.contains("=")) {
        return "The body looks like a Java Map's toString(), not JSON: an object was turned into a string. " + RAW_BODY_HINT;
      }
      return "Check that the secret is this webhook's and that the body is unchanged. " + RAW_BODY_HINT;
    }
    // Cambio sends compact JSON: if that form verifies, the body was certainly re-serialised.
    String compact = Json.write(parsed);
    if (!compact.equals(body)) {
      byte[] expected = sign(key, id, timestamp, compact.getBytes(StandardCharsets.UTF_8));
      boolean matched = false;
      for (byte[] candidate : candidates) matched |= MessageDigest.isEqual(candidate, expected);
      if (matched) {
        return "The body was re-serialised: the signature matches the same JSON as Cambio sent it, not the bytes you passed. " + RAW_BODY_HINT;
      }
      return "The body looks like re-serialised JSON (re-indented or re-ordered), not the bytes Cambio signed. " + RAW_BODY_HINT;
    }
    return "The body is JSON: if your framework parsed it and you serialised it again, its bytes may differ from what Cambio signed (key order, escapes). "
        + RAW_BODY_HINT + " Otherwise check that the secret is this webhook's.";
  }
}
