package com.cambio.param;

import java.math.BigDecimal;

/**
 * {@code POST /v1/conversions/quote}: a USDT → BRL quote, valid 30 s. The currencies default to
 * {@code "USDT"} and {@code "BRL"}, the only pair today.
 */
public final class ConversionQuoteParams extends AbstractParams {
  private final String sourceCurrency;
  private final String settlementCurrency;
  private final String sourceAmount;

  private ConversionQuoteParams(Builder b) {
    this.sourceCurrency = required(b.sourceCurrency, "sourceCurrency");
    this.settlementCurrency = required(b.settlementCurrency, "settlementCurrency");
    this.sourceAmount = required(b.sourceAmount, "sourceAmount (a USDT decimal string)");
  }

  public static Builder builder() {
    return new Builder();
  }

  public String sourceCurrency() {
    return sourceCurrency;
  }

  public String settlementCurrency() {
    return settlementCurrency;
  }

  public String sourceAmount() {
    return sourceAmount;
  }

  public static final class Builder {
    private String sourceCurrency = "USDT";
    private String settlementCurrency = "BRL";
    private String sourceAmount;

    private Builder() {}

    public Builder sourceCurrency(String sourceCurrency) {
      this.sourceCurrency = sourceCurrency;
      return this;
    }

    public Builder settlementCurrency(String settlementCurrency) {
      this.settlementCurrency = settlementCurrency;
      return this;
    }

    /** USDT to convert, a decimal string with at most 6 decimals. Required. */
    public Builder sourceAmount(String sourceAmount) {
      this.sourceAmount = sourceAmount;
      return this;
    }

    public Builder sourceAmount(BigDecimal sourceAmount) {
      return sourceAmount(Params.decimal(sourceAmount));
    }

    public ConversionQuoteParams build() {
      return new ConversionQuoteParams(this);
    }
  }
}
