package com.cambio.param;

import com.cambio.internal.RecordBuilder;
import java.math.BigDecimal;

/**
 * The fields a deposit's and a withdrawal's bodies share, set the same way on both builders:
 * {@code method} (defaulting to {@code "usdt"}), {@code network} and {@code reference} (both
 * required: {@code build()} throws an {@link IllegalStateException} naming the one missing) and the
 * USDT {@code amount}.
 *
 * @param <B> the builder itself
 * @param <R> the params it builds
 */
abstract class TransferBuilder<B extends TransferBuilder<B, R>, R extends Record> extends RecordBuilder<B, R> {
  TransferBuilder() {
    method("usdt");
  }

  /** {@code "usdt"} (the default). */
  public B method(String method) {
    return set("method", method);
  }

  /**
   * {@code "tron"}, {@code "ethereum"}, {@code "bsc"}, {@code "polygon"}, {@code "arbitrum"} or
   * {@code "solana"}, where the stage opens it: the network a deposit's address is on, or a
   * withdrawal is sent on. Required: there is no default.
   */
  public B network(String network) {
    return set("network", network);
  }

  /**
   * Your id for this deposit or withdrawal: 1–128 characters {@code [A-Za-z0-9._:-]}, unique among
   * your deposits (or your withdrawals). Required.
   */
  public B reference(String reference) {
    return set("reference", reference);
  }

  /**
   * USDT, a decimal string with at most 6 decimals, e.g. {@code "5"} or {@code "10.5"}: a
   * withdrawal's amount (required), or the amount a deposit expects (optional and informative:
   * whatever arrives is credited).
   */
  public B amount(String amount) {
    return set("amount", amount);
  }

  /** {@link #amount(String)} as a {@link BigDecimal}, sent as its plain decimal string. */
  public B amount(BigDecimal amount) {
    return amount(Params.decimal(amount));
  }
}
