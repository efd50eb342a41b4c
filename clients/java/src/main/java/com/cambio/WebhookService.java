package com.cambio;

import com.cambio.model.CreatedWebhook;
import com.cambio.model.DeletedWebhook;
import com.cambio.model.Webhook;
import com.cambio.param.WebhookParams;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/**
 * {@code cambio.webhooks()}: the endpoints Cambio POSTs events to, and {@code verify} for what
 * arrives. {@code list(…)} is {@code GET /v1/webhooks}, {@code create(WebhookParams)} {@code POST
 * /v1/webhooks} (the answer carries the signing {@code secret}, shown only this once: store it),
 * {@code get(id)} {@code GET /v1/webhooks/:id}.
 */
public final class WebhookService extends ListingService<Webhook, WebhookParams, CreatedWebhook> {
  WebhookService(CambioClient client) {
    super(client, "/v1/webhooks", Webhook.class, CreatedWebhook.class);
  }

  /** {@code PUT /v1/webhooks/:id}: replaces the webhook (omitted optional fields take their defaults); the secret is kept. */
  public Webhook update(String id, WebhookParams params) {
    return update(id, params, null);
  }

  /** {@link #update(String, WebhookParams)} with per-call options. */
  public Webhook update(String id, WebhookParams params, RequestOptions options) {
    return client.request("PUT", byId(id), params, options, Webhook.class);
  }

  /**
   * {@code DELETE /v1/webhooks/:id} → {@code deleted} true. When a retry (after a timeout, a lost
   * connection or a 5xx) is answered 404, the try before it deleted the webhook and its answer was
   * lost: that is this same success, not a {@code NotFoundException}. A 404 to the first try is a
   * {@code NotFoundException}.
   */
  public DeletedWebhook delete(String id) {
    return delete(id, null);
  }

  /** {@link #delete(String)} with per-call options. */
  public DeletedWebhook delete(String id, RequestOptions options) {
    return client.delete(byId(id), options, Map.of("id", id, "deleted", true), DeletedWebhook.class);
  }

  /**
   * Verifies a delivery (Standard Webhooks, local: no request) and returns its event. Give it the
   * RAW body exactly as received, the request's headers (any Map whose values are a String or a
   * List of Strings, names matched case-insensitively: Spring's {@code @RequestHeader Map} or
   * {@code HttpHeaders}) and the webhook's {@code whsec_…} secret (or its raw base64 key, padded
   * or not). First {@link #verifySignature(String, Map, String)}: any of the {@code v1,}
   * signatures may match, in constant time, and {@code webhook-timestamp} must be within 5
   * minutes, either way. Then the body: a verified body that is not a Cambio event is returned
   * with a null {@code type} ({@link WebhookEvent#isCambioEvent()} false), never refused.
   *
   * @throws com.cambio.exception.WebhookVerificationException when forged, altered, stale or
   *     re-serialised (the message says what failed); answer such a request with 400
   */
  public WebhookEvent verify(String rawBody, Map<String, ?> headers, String secret) {
    return verify(bytes(rawBody), headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** {@link #verify(String, Map, String)} over the body's bytes (the safest form: nothing decoded). */
  public WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret) {
    return verify(rawBody, headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** For tests: verifies as if the time were {@code now}. */
  public WebhookEvent verify(String rawBody, Map<String, ?> headers, String secret, Instant now) {
    return verify(bytes(rawBody), headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, Clock.fixed(now, ZoneOffset.UTC));
  }

  public WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret, Instant now) {
    return verify(rawBody, headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, Clock.fixed(now, ZoneOffset.UTC));
  }

  /** For tests: verifies with the time of {@code clock}. */
  public WebhookEvent verify(String rawBody, Map<String, ?> headers, String secret, Clock clock) {
    return verify(bytes(rawBody), headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, clock);
  }

  public WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret, Clock clock) {
    return verify(rawBody, headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, clock);
  }

  /** With another timestamp tolerance than the default 300 s, and a clock. */
  public WebhookEvent verify(String rawBody, Map<String, ?> headers, String secret, Duration tolerance, Clock clock) {
    return verify(bytes(rawBody), headers, secret, tolerance, clock);
  }

  public WebhookEvent verify(byte[] rawBody, Map<String, ?> headers, String secret, Duration tolerance, Clock clock) {
    return WebhookVerifier.verify(rawBody, headers, secret, tolerance, clock);
  }

  /**
   * The first step of {@link #verify(String, Map, String)} alone: throws, saying what failed,
   * unless the delivery is signed with {@code secret} and fresh; the body is not read.
   */
  public void verifySignature(String rawBody, Map<String, ?> headers, String secret) {
    verifySignature(bytes(rawBody), headers, secret, Instant.now());
  }

  public void verifySignature(byte[] rawBody, Map<String, ?> headers, String secret) {
    verifySignature(rawBody, headers, secret, Instant.now());
  }

  /** For tests: as if the time were {@code now}. */
  public void verifySignature(String rawBody, Map<String, ?> headers, String secret, Instant now) {
    verifySignature(bytes(rawBody), headers, secret, now);
  }

  public void verifySignature(byte[] rawBody, Map<String, ?> headers, String secret, Instant now) {
    WebhookVerifier.verifySignature(rawBody, headers, secret, WebhookVerifier.DEFAULT_TOLERANCE, Clock.fixed(now, ZoneOffset.UTC));
  }

  private static byte[] bytes(String rawBody) {
    return rawBody == null ? null : rawBody.getBytes(StandardCharsets.UTF_8);
  }
}
