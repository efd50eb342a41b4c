package com.cambio.param;

import com.cambio.internal.Required;

/**
 * {@code POST /v1/withdrawals}: send USDT to a TRON address. {@code amount + fee} moves from
 * available to locked, or the API refuses with 422 {@code INSUFFICIENT_BALANCE}.
 * {@code method} and {@code network} default to {@code "usdt"} and {@code "tron"}.
 *
 * @param method {@code "usdt"}
 * @param network {@code "tron"}
 * @param address the destination TRON address
 * @param amount USDT, a decimal string
 * @param reference your id for this payout, unique among your withdrawals
 */
public record WithdrawalCreateParams(
    @Required String method,
    @Required String network,
    @Required("a TRON address") String address,
    @Required("a USDT decimal string") String amount,
    @Required("1-128 chars [A-Za-z0-9._:-], unique among your withdrawals") String reference)
    implements Params {
  public static Builder builder() {
    return new Builder();
  }

  /** {@code method}, {@code network}, {@code reference} and {@code amount}, set as on a deposit's builder; and {@code address}. */
  public static final class Builder extends TransferBuilder<Builder, WithdrawalCreateParams> {
    /** The destination TRON address (base58check, starting with T). Required. */
    public Builder address(String address) {
      return set("address", address);
    }
  }
}
