package com.cambio.param;

import java.math.BigDecimal;

/**
 * {@code POST /v1/deposits}: a fresh TRON address to receive USDT. {@code method} and
 * {@code network} default to {@code "usdt"} and {@code "tron"}, the only values today.
 *
 * <pre>{@code
 * DepositCreateParams.builder().method("usdt").network("tron").reference("order-1").amount("25").build()
 * }</pre>
 */
public final class DepositCreateParams extends AbstractParams {
  private final String method;
  private final String reference;
  private final String network;
  private final String amount;
  private final Split split;

  private DepositCreateParams(Builder b) {
    this.method = required(b.method, "method");
    this.reference = required(b.reference, "reference (1-128 chars [A-Za-z0-9._:-], unique among your deposits)");
    this.network = required(b.network, "network");
    this.amount = b.amount;
    this.split = b.split;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String method() {
    return method;
  }

  public String reference() {
    return reference;
  }

  public String network() {
    return network;
  }

  public String amount() {
    return amount;
  }

  public Split split() {
    return split;
  }

  public static final class Builder {
    private String method = "usdt";
    private String reference;
    private String network = "tron";
    private String amount;
    private Split split;

    private Builder() {}

    /** {@code "usdt"} (the default). */
    public Builder method(String method) {
      this.method = method;
      return this;
    }

    /** Your id for this deposit: 1–128 characters {@code [A-Za-z0-9._:-]}, unique among your deposits. Required. */
    public Builder reference(String reference) {
      this.reference = reference;
      return this;
    }

    /** {@code "tron"} (the default). */
    public Builder network(String network) {
      this.network = network;
      return this;
    }

    /** The expected USDT amount, a decimal string with at most 6 decimals (informative: whatever arrives is credited). */
    public Builder amount(String amount) {
      this.amount = amount;
      return this;
    }

    /** The expected USDT amount; sent as its plain decimal string. */
    public Builder amount(BigDecimal amount) {
      return amount(Params.decimal(amount));
    }

    /** Forward a share of every confirmed transfer to another TRON address. */
    public Builder split(Split split) {
      this.split = split;
      return this;
    }

    public DepositCreateParams build() {
      return new DepositCreateParams(this);
    }
  }

  /** {@code split}: an address and exactly one of {@code percent} (above 0, below 100, at most 2 decimals) or {@code amount} (USDT). */
  public static final class Split {
    private final String address;
    private final BigDecimal percent;
    private final String amount;

    private Split(SplitBuilder b) {
      this.address = Params.required(b.address, "DepositCreateParams.Split", "address");
      if ((b.percent == null) == (b.amount == null)) throw new IllegalStateException("DepositCreateParams.Split needs exactly one of percent or amount");
      this.percent = b.percent;
      this.amount = b.amount;
    }

    public static SplitBuilder builder() {
      return new SplitBuilder();
    }

    public String address() {
      return address;
    }

    public BigDecimal percent() {
      return percent;
    }

    public String amount() {
      return amount;
    }
  }

  public static final class SplitBuilder {
    private String address;
    private BigDecimal percent;
    private String amount;

    private SplitBuilder() {}

    /** A TRON address (base58check, starting with T). */
    public SplitBuilder address(String address) {
      this.address = address;
      return this;
    }

    /** Percentage of every confirmed transfer, e.g. {@code new BigDecimal("12.5")} (a JSON number). */
    public SplitBuilder percent(BigDecimal percent) {
      this.percent = percent;
      return this;
    }

    /** Percentage as decimal text, e.g. {@code "12.5"}. */
    public SplitBuilder percent(String percent) {
      return percent(percent == null ? null : new BigDecimal(percent));
    }

    /** A USDT amount of every confirmed transfer, a decimal string. */
    public SplitBuilder amount(String amount) {
      this.amount = amount;
      return this;
    }

    public SplitBuilder amount(BigDecimal amount) {
      return amount(Params.decimal(amount));
    }

    public Split build() {
      return new Split(this);
    }
  }
}
