package com.cambio.param;

import com.cambio.internal.RecordBuilder;
import com.cambio.internal.Required;
import java.math.BigDecimal;

/**
 * {@code POST /v1/deposits}: a fresh address to receive USDT on {@code network}. {@code network} and
 * {@code reference} are required; {@code method} defaults to {@code "usdt"}.
 *
 * <pre>{@code
 * DepositCreateParams.builder().method("usdt").network("tron").reference("order-1").amount("25").build()
 * }</pre>
 *
 * @param method {@code "usdt"}
 * @param reference your id for this deposit, unique among your deposits
 * @param network {@code "tron"}, {@code "ethereum"}, {@code "bsc"}, {@code "polygon"},
 *     {@code "arbitrum"} or {@code "solana"} (those the stage opens)
 * @param amount the expected USDT amount, or null
 * @param split where a share of every confirmed transfer is forwarded, or null
 */
public record DepositCreateParams(
    @Required String method,
    @Required("1-128 chars [A-Za-z0-9._:-], unique among your deposits") String reference,
    @Required("tron, ethereum, bsc, polygon, arbitrum or solana") String network,
    String amount,
    Split split) implements Params {
  public static Builder builder() {
    return new Builder();
  }

  /** {@code method}, {@code network}, {@code reference} and {@code amount}, set as on a withdrawal's builder; and {@code split}. */
  public static final class Builder extends TransferBuilder<Builder, DepositCreateParams> {
    /** Forward a share of every confirmed transfer to another address on the deposit's network. */
    public Builder split(Split split) {
      return set("split", split);
    }
  }

  /**
   * {@code split}: an address and exactly one of {@code percent} (above 0, below 100, at most 2
   * decimals) or {@code amount} (USDT).
   *
   * @param address an address on the deposit's network
   * @param percent the percentage of every confirmed transfer (a JSON number), or null
   * @param amount the USDT amount of every confirmed transfer, or null
   */
  public record Split(@Required String address, BigDecimal percent, String amount) {
    /** Refuses both or neither of percent and amount with an {@link IllegalStateException}. */
    public Split {
      if ((percent == null) == (amount == null)) throw new IllegalStateException("DepositCreateParams.Split needs exactly one of percent or amount");
    }

    public static SplitBuilder builder() {
      return new SplitBuilder();
    }
  }

  public static final class SplitBuilder extends RecordBuilder<SplitBuilder, Split> {
    /** An address on the deposit's network: TRON base58check ({@code T…}), EIP-55 ({@code 0x…}) or a Solana wallet's base58. */
    public SplitBuilder address(String address) {
      return set("address", address);
    }

    /** Percentage of every confirmed transfer, e.g. {@code new BigDecimal("12.5")} (a JSON number). */
    public SplitBuilder percent(BigDecimal percent) {
      return set("percent", percent);
    }

    /** Percentage as decimal text, e.g. {@code "12.5"}. */
    public SplitBuilder percent(String percent) {
      return percent(percent == null ? null : new BigDecimal(percent));
    }

    /** A USDT amount of every confirmed transfer, a decimal string. */
    public SplitBuilder amount(String amount) {
      return set("amount", amount);
    }

    public SplitBuilder amount(BigDecimal amount) {
      return amount(Params.decimal(amount));
    }
  }
}
