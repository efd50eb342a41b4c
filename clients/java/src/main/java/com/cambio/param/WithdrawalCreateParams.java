package com.cambio.param;

import com.cambio.internal.Required;

/**
 * {@code POST /v1/withdrawals}: send USDT to an address on {@code network}. {@code amount + fee}
 * moves from available to locked, or the API refuses with 422 {@code INSUFFICIENT_BALANCE}.
 * {@code network}, {@code address}, {@code amount} and {@code reference} are required;
 * {@code method} defaults to {@code "usdt"}.
 *
 * <pre>{@code
 * WithdrawalCreateParams.builder().network("ethereum").address("0x52908400098527886E0F7030069857D2E4169EE7")
 *     .amount("5").reference("payout-1").build()
 * }</pre>
 *
 * @param method {@code "usdt"}
 * @param network {@code "tron"}, {@code "ethereum"}, {@code "bsc"}, {@code "polygon"},
 *     {@code "arbitrum"} or {@code "solana"} (those the stage opens)
 * @param address the destination address on {@code network}
 * @param amount USDT, a decimal string
 * @param reference your id for this payout, unique among your withdrawals
 */
public record WithdrawalCreateParams(
    @Required String method,
    @Required("tron, ethereum, bsc, polygon, arbitrum or solana") String network,
    @Required("a TRON, EIP-55 0x or Solana address") String address,
    @Required("a USDT decimal string") String amount,
    @Required("1-128 chars [A-Za-z0-9._:-], unique among your withdrawals") String reference)
    implements Params {
  public static Builder builder() {
    return new Builder();
  }

  /** {@code method}, {@code network}, {@code reference} and {@code amount}, set as on a deposit's builder; and {@code address}. */
  public static final class Builder extends TransferBuilder<Builder, WithdrawalCreateParams> {
    /**
     * The destination address on the withdrawal's network: TRON base58check ({@code T…}), on the
     * EVM networks EIP-55 ({@code 0x…}), on Solana a wallet's base58 address (not a token
     * account's: the API refuses those). Required.
     */
    public Builder address(String address) {
      return set("address", address);
    }
  }
}
