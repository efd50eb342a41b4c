package com.cambio;

import com.cambio.model.CreatedWebhook;
import com.cambio.model.DeletedWebhook;
import com.cambio.model.Webhook;
import com.cambio.param.ListParams;
import com.cambio.param.WebhookParams;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;

/** {@code cambio.webhooks()}: the endpoints Cambio POSTs events to, and {@code verify} for what arrives. */
public final class WebhookService extends ApiService {
  WebhookService(CambioClient client) {
    super(client);
  }

  /** {@code GET /v1/webhooks}: one page. */
  public Page<Webhook> list() {
    return list(null, null);
  }

  public Page<Webhook> list(ListParams params) {
    return list(params, null);
  }

  public Page<Webhook> list(ListParams params, RequestOptions options) {
    return client.page("/v1/webhooks", params, options, Webhook.class);
  }

  /** {@code POST /v1/webhooks}. The answer carries the signing {@code secret}, shown only this once: store it. */
  public CreatedWebhook create(WebhookParams params) {
    return create(params, null);
  }

  public CreatedWebhook create(WebhookParams params, RequestOptions options) {
    return client.request("POST", "/v1/webhooks", params, options, CreatedWebhook.class);
  }

  /** {@code GET /v1/webhooks/:id}. */
  public Webhook get(String id) {
    return get(id, null);
  }

  public Webhook get(String id, RequestOptions options) {
    return client.request("GET", "/v1/webhooks/" + CambioClient.segment(id), null, options, Webhook.class);
  }

  /** {@code PUT /v1/webhooks/:id}: replaces the webhook (omitted optional fields take their defaults); the secret is kept. */
  public Webhook update(String id, WebhookParams params) {
    return update(id, params, null);
  }

  public Webhook update(String id, WebhookParams params, RequestOptions options) {
    return client.request("PUT", "/v1/webhooks/" + CambioClient.segment(id), params, options, Webhook.class);
  }

  /** {@code DELETE /v1/webhooks/:id} → {@code deleted} true. */
  public DeletedWebhook delete(String id) {
    return delete(id, null);
  }

  public DeletedWebhook delete(String id, RequestOptions options) {
    return client.request("DELETE", "/v1/webhooks/" + CambioClient.segment(id), null, options, DeletedWebhook.class);
  }

  /**
   * Verifies a delivery (Standard Webhooks, local: no request) and returns its event. Give it the
   * RAW body exactly as received, the request's headers (any Map whose values are a String or a
   * List of Strings, names matched case-insensitively: Spring's {@code @RequestHeader Map} or
   * {@code HttpHeaders}) and the webhook's {@code whsec_…} secret. Checks any of the {@code v1,}
   * signatures in constant time and that {@code webhook-timestamp} is within 5 minutes.
   *
   * @throws com.cambio.exception.WebhookVerificationException when forged, altered, stale or
   *     re-serialised (the message says which); answer such a request with 400
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

  private static byte[] bytes(String rawBody) {
    return rawBody == null ? null : rawBody.getBytes(StandardCharsets.UTF_8);
  }
}
