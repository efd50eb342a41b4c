package com.cambio.param;

import com.cambio.internal.RecordBuilder;
import com.cambio.internal.Required;

/**
 * {@code POST /v1/conversions}: executes a quote (USDT debited, BRL credited, in one transaction).
 *
 * @param quoteId the {@code qte_…} id of an unexpired quote
 * @param reference your id for this conversion, or null
 */
public record ConversionCreateParams(@Required String quoteId, String reference) implements Params {
  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder extends RecordBuilder<Builder, ConversionCreateParams> {
    /** The {@code qte_…} id of an unexpired quote. Required. */
    public Builder quoteId(String quoteId) {
      return set("quoteId", quoteId);
    }

    /** Your id for this conversion (optional). */
    public Builder reference(String reference) {
      return set("reference", reference);
    }
  }
}
