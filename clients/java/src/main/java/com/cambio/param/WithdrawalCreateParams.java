package com.cambio.param;

import java.math.BigDecimal;

/**
 * {@code POST /v1/withdrawals}: send USDT to a TRON address. {@code amount + fee} moves from
 * available to locked, or the API refuses with 422 {@code INSUFFICIENT_BALANCE}.
 * {@code method} and {@code network} default to {@code "usdt"} and {@code "tron"}.
 */
public final class WithdrawalCreateParams extends AbstractParams {
  private final String method;
  private final String network;
  private final String address;
  private final String amount;
  private final String reference;

  private WithdrawalCreateParams(Builder b) {
    this.method = required(b.method, "method");
    this.network = required(b.network, "network");
    this.address = required(b.address, "address (a TRON address)");
    this.amount = required(b.amount, "amount (a USDT decimal string)");
    this.reference = required(b.reference, "reference (1-128 chars [A-Za-z0-9._:-], unique among your withdrawals)");
  }

  public static Builder builder() {
    return new Builder();
  }

  public String method() {
    return method;
  }

  public String network() {
    return network;
  }

  public String address() {
    return address;
  }

  public String amount() {
    return amount;
  }

  public String reference() {
    return reference;
  }

  public static final class Builder {
    private String method = "usdt";
    private String network = "tron";
    private String address;
    private String amount;
    private String reference;

    private Builder() {}

    public Builder method(String method) {
      this.method = method;
      return this;
    }

    public Builder network(String network) {
      this.network = network;
      return this;
    }

    /** The destination TRON address (base58check, starting with T). Required. */
    public Builder address(String address) {
      this.address = address;
      return this;
    }

    /** USDT, a decimal string with at most 6 decimals, e.g. {@code "5"} or {@code "10.5"}. Required. */
    public Builder amount(String amount) {
      this.amount = amount;
      return this;
    }

    public Builder amount(BigDecimal amount) {
      return amount(Params.decimal(amount));
    }

    /** Your id for this payout, unique among your withdrawals. Required. */
    public Builder reference(String reference) {
      this.reference = reference;
      return this;
    }

    public WithdrawalCreateParams build() {
      return new WithdrawalCreateParams(this);
    }
  }
}
