package com.cambio;

/**
 * Per-call options, the optional last argument of every call:
 *
 * <pre>{@code
 * cambio.withdrawals().create(params, RequestOptions.builder().idempotencyKey("payout-" + orderId).build());
 * }</pre>
 */
public final class RequestOptions {
  private final String idempotencyKey;
  private final Integer maxRetries;

  private RequestOptions(Builder b) {
    this.idempotencyKey = b.idempotencyKey;
    this.maxRetries = b.maxRetries;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Shorthand for {@code builder().idempotencyKey(key).build()}. */
  public static RequestOptions withIdempotencyKey(String idempotencyKey) {
    return builder().idempotencyKey(idempotencyKey).build();
  }

  /** The caller's Idempotency-Key, or null (the client then makes a UUID v4 per call). */
  public String idempotencyKey() {
    return idempotencyKey;
  }

  /** Overrides the client's maxRetries for this call, or null. */
  public Integer maxRetries() {
    return maxRetries;
  }

  @Override
  public String toString() {
    return "RequestOptions{idempotencyKey=" + idempotencyKey + ", maxRetries=" + maxRetries + "}";
  }

  public static final class Builder {
    private String idempotencyKey;
    private Integer maxRetries;

    private Builder() {}

    /**
     * Sent as the POST's {@code Idempotency-Key} (1–255 printable ASCII characters) instead of a
     * fresh UUID: the API replays the first answer for the same key and body for 24 h, so a call
     * repeated across process restarts (e.g. keyed by your order id) is done once.
     */
    public Builder idempotencyKey(String idempotencyKey) {
      if (idempotencyKey == null || idempotencyKey.isEmpty() || idempotencyKey.length() > 255 || !idempotencyKey.chars().allMatch(c -> c >= 0x20 && c <= 0x7e)) {
        throw new IllegalArgumentException("idempotencyKey must be 1-255 printable ASCII characters");
      }
      this.idempotencyKey = idempotencyKey;
      return this;
    }

    /** Retries after the first try for this call (0 for none). */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = CambioClient.checkedMaxRetries(maxRetries);
      return this;
    }

    public RequestOptions build() {
      return new RequestOptions(this);
    }
  }
}
