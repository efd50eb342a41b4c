package com.cambio.exception;

/**
 * {@code webhooks().verify(…)} refused a delivery ({@code WEBHOOK_VERIFICATION_FAILED}): do not
 * trust its body. Answer it with 400; the message says what is wrong (often a body that was
 * parsed and serialised again instead of passed raw).
 */
public class WebhookVerificationException extends CambioException {
  private static final long serialVersionUID = 1L;

  public WebhookVerificationException(String message) {
    super(message, "WEBHOOK_VERIFICATION_FAILED", null, null, null, null);
  }
}
