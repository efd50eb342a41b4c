package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.WebhookVerificationException;
import com.cambio.model.Deposit;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** verify(): header containers, clocks, tolerance, and the messages that name the usual mistakes. */
class WebhookVerifyTest {
  static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
  static final long NOW = 1_767_225_600L;
  static final String BODY = "{\"id\":\"evt_1\",\"type\":\"deposit.completed\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":" + Fixtures.DEPOSIT + "}";
  final WebhookService webhooks = WebhookVectorsTest.CAMBIO.webhooks();

  static String sign(String secret, String id, long timestamp, String body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(6)), "HmacSHA256"));
    return "v1," + Base64.getEncoder().encodeToString(mac.doFinal((id + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8)));
  }

  static Map<String, String> headers(String body) throws Exception {
    return Map.of("webhook-id", "evt_1", "webhook-timestamp", String.valueOf(NOW), "webhook-signature", sign(SECRET, "evt_1", NOW, body));
  }

  @Test
  void returnsTheTypedEvent() throws Exception {
    WebhookEvent event = webhooks.verify(BODY, headers(BODY), SECRET, Instant.ofEpochSecond(NOW));
    assertEquals("evt_1", event.id());
    assertEquals("deposit.completed", event.type());
    assertEquals("2026-01-01T00:00:00.000Z", event.createdAt());
    assertEquals("dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5", event.data().get("id"));
    Deposit deposit = event.deposit();
    assertEquals("25.000000", deposit.creditedAmount());
    assertThrows(IllegalStateException.class, event::withdrawal);
    assertThrows(UnsupportedOperationException.class, () -> event.data().put("id", "x"));
  }

  @Test
  void aReversedTransferIsATypedDepositEvent() throws Exception {
    String address = "0x52908400098527886E0F7030069857D2E4169EE7";
    String deposit = Fixtures.DEPOSIT.replace("\"network\":\"tron\"", "\"network\":\"bsc\"").replace("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", address);
    String body = "{\"id\":\"evt_1\",\"type\":\"deposit.transfer_reversed\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":" + deposit + "}";
    WebhookEvent event = webhooks.verify(body, headers(body), SECRET, Instant.ofEpochSecond(NOW));
    assertEquals("deposit.transfer_reversed", event.type());
    Deposit reversed = event.deposit();
    assertEquals(List.of("bsc", address), List.of(reversed.network(), reversed.address()));
    assertThrows(IllegalStateException.class, event::conversion);
  }

  @Test
  void aHeldDepositIsATypedDepositEventWithItsHoldReason() throws Exception {
    String deposit = Fixtures.DEPOSIT.replace("\"status\":\"completed\"", "\"status\":\"held\"").replace("\"holdReason\":null", "\"holdReason\":\"address_frozen\"")
        .replace("\"creditedAmount\":\"25.000000\"", "\"creditedAmount\":\"0.000000\"");
    String body = "{\"id\":\"evt_1\",\"type\":\"deposit.held\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":" + deposit + "}";
    WebhookEvent event = webhooks.verify(body, headers(body), SECRET, Instant.ofEpochSecond(NOW));
    assertEquals("deposit.held", event.type());
    Deposit held = event.deposit();
    assertEquals(List.of("held", "address_frozen", "25.000000", "0.000000"), List.of(held.status(), held.holdReason(), held.receivedAmount(), held.creditedAmount()));
    assertThrows(IllegalStateException.class, event::withdrawal);
  }

  @Test
  void acceptsListValuedAndAnyCaseHeadersAsServletsAndSpringGiveThem() throws Exception {
    Map<String, List<String>> multi = new HashMap<>();
    multi.put("Webhook-Id", List.of("evt_1"));
    multi.put("WEBHOOK-TIMESTAMP", List.of(String.valueOf(NOW)));
    multi.put("webhook-signature", List.of("v1,AAAA", sign(SECRET, "evt_1", NOW, BODY)));
    assertEquals("deposit.completed", webhooks.verify(BODY.getBytes(StandardCharsets.UTF_8), multi, SECRET, Instant.ofEpochSecond(NOW)).type());
  }

  @Test
  void usesTheClockAndTheTolerance() throws Exception {
    Clock later = Clock.fixed(Instant.ofEpochSecond(NOW + 600), ZoneOffset.UTC);
    WebhookVerificationException stale = assertThrows(WebhookVerificationException.class, () -> webhooks.verify(BODY, headers(BODY), SECRET, later));
    assertTrue(stale.getMessage().contains("tolerance"), stale.getMessage());
    assertEquals("deposit.completed", webhooks.verify(BODY, headers(BODY), SECRET, Duration.ofMinutes(15), later).type());
    // The system clock: signed now.
    long now = Instant.now().getEpochSecond();
    Map<String, String> fresh = Map.of("webhook-id", "evt_1", "webhook-timestamp", String.valueOf(now), "webhook-signature", sign(SECRET, "evt_1", now, BODY));
    assertEquals("evt_1", webhooks.verify(BODY, fresh, SECRET).id());
  }

  @Test
  void doesNotBlameAPlainMismatchOnSerialisation() throws Exception {
    String reordered = "{\"type\":\"deposit.completed\",\"id\":\"evt_1\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":" + Fixtures.DEPOSIT + "}";
    WebhookVerificationException error =
        assertThrows(WebhookVerificationException.class, () -> webhooks.verify(reordered, headers(BODY), SECRET, Instant.ofEpochSecond(NOW)));
    assertTrue(error.getMessage().startsWith("No matching signature: the secret is not this webhook's"), error.getMessage());
    assertTrue(error.getMessage().contains("raw request body"), error.getMessage());
    assertTrue(!error.getMessage().contains("re-serialised"), error.getMessage());
  }

  @Test
  void namesAJavaMapToString() throws Exception {
    WebhookVerificationException error =
        assertThrows(WebhookVerificationException.class, () -> webhooks.verify("{id=evt_1, type=deposit.completed}", headers(BODY), SECRET, Instant.ofEpochSecond(NOW)));
    assertTrue(error.getMessage().contains("toString()"), error.getMessage());
  }

  @Test
  void refusesAMissingHeaderABadSecretAndNulls() throws Exception {
    Map<String, String> noSignature = Map.of("webhook-id", "evt_1", "webhook-timestamp", String.valueOf(NOW));
    assertTrue(assertThrows(WebhookVerificationException.class, () -> webhooks.verify(BODY, noSignature, SECRET, Instant.ofEpochSecond(NOW))).getMessage().contains("Missing"));
    assertEquals("evt_1", webhooks.verify(BODY, headers(BODY), "MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", Instant.ofEpochSecond(NOW)).id());
    assertTrue(assertThrows(WebhookVerificationException.class, () -> webhooks.verify(BODY, headers(BODY), "whsec_!!!", Instant.ofEpochSecond(NOW))).getMessage().contains("not base64"));
    assertThrows(WebhookVerificationException.class, () -> webhooks.verify((String) null, headers(BODY), SECRET, Instant.ofEpochSecond(NOW)));
    assertThrows(WebhookVerificationException.class, () -> webhooks.verify(BODY, null, SECRET, Instant.ofEpochSecond(NOW)));
  }

  @Test
  void aSignedBodyThatIsNotJsonIsReturnedAsAnUnknownEvent() throws Exception {
    String body = "not json";
    WebhookEvent event = webhooks.verify(body, headers(body), SECRET, Instant.ofEpochSecond(NOW));
    assertEquals(new WebhookEvent("evt_1", null, null, null), event);
    assertTrue(!event.isCambioEvent());
  }
}
