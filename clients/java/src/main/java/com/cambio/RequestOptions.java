package com.cambio;

import com.cambio.internal.RecordBuilder;

/**
 * Per-call options, the optional last argument of every call:
 *
 * <pre>{@code
 * cambio.withdrawals().create(params, RequestOptions.builder().idempotencyKey("payout-" + orderId).build());
 * }</pre>
 *
 * @param idempotencyKey the caller's Idempotency-Key, or null (the client then makes a UUID v4 per call)
 * @param maxRetries overrides the client's maxRetries for this call, or null
 */
public record RequestOptions(String idempotencyKey, Integer maxRetries) {
  /** Refuses an idempotencyKey or a maxRetries the API or the client would not take ({@link IllegalArgumentException}). */
  public RequestOptions {
    if (idempotencyKey != null) checkedIdempotencyKey(idempotencyKey);
    if (maxRetries != null) CambioClient.checkedMaxRetries(maxRetries);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Shorthand for {@code builder().idempotencyKey(key).build()}. */
  public static RequestOptions withIdempotencyKey(String idempotencyKey) {
    return builder().idempotencyKey(idempotencyKey).build();
  }

  @Override
  public String toString() {
    return "RequestOptions{idempotencyKey=" + idempotencyKey + ", maxRetries=" + maxRetries + "}";
  }

  private static String checkedIdempotencyKey(String idempotencyKey) {
    if (idempotencyKey == null || idempotencyKey.isEmpty() || idempotencyKey.length() > 255 || !idempotencyKey.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
      throw new IllegalArgumentException("idempotencyKey must be 1-255 printable ASCII characters");
    }
    return idempotencyKey;
  }

  public static final class Builder extends RecordBuilder<Builder, RequestOptions> {
    /**
     * Sent as the POST's {@code Idempotency-Key} (1–255 printable ASCII characters) instead of a
     * fresh UUID: the API replays the first answer for the same key and body for 24 h, so a call
     * repeated across process restarts (e.g. keyed by your order id) is done once.
     */
    public Builder idempotencyKey(String idempotencyKey) {
      return set("idempotencyKey", checkedIdempotencyKey(idempotencyKey));
    }

    /** Retries after the first try for this call (0 for none). */
    public Builder maxRetries(int maxRetries) {
      return set("maxRetries", CambioClient.checkedMaxRetries(maxRetries));
    }
  }
}
