package com.cambio.param;

import com.cambio.internal.RecordBuilder;
import com.cambio.internal.Required;
import java.math.BigDecimal;

/**
 * {@code POST /v1/conversions/quote}: a USDT → BRL quote, valid 30 s. The currencies default to
 * {@code "USDT"} and {@code "BRL"}, the only pair today.
 *
 * @param sourceCurrency {@code "USDT"}
 * @param settlementCurrency {@code "BRL"}
 * @param sourceAmount the USDT to convert, a decimal string
 */
public record ConversionQuoteParams(
    @Required String sourceCurrency,
    @Required String settlementCurrency,
    @Required("a USDT decimal string") String sourceAmount)
    implements Params {
  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder extends RecordBuilder<Builder, ConversionQuoteParams> {
    public Builder() {
      sourceCurrency("USDT");
      settlementCurrency("BRL");
    }

    public Builder sourceCurrency(String sourceCurrency) {
      return set("sourceCurrency", sourceCurrency);
    }

    public Builder settlementCurrency(String settlementCurrency) {
      return set("settlementCurrency", settlementCurrency);
    }

    /** USDT to convert, a decimal string with at most 6 decimals. Required. */
    public Builder sourceAmount(String sourceAmount) {
      return set("sourceAmount", sourceAmount);
    }

    public Builder sourceAmount(BigDecimal sourceAmount) {
      return sourceAmount(Params.decimal(sourceAmount));
    }
  }
}
