package com.cambio.param;

/** {@code POST /v1/conversions}: executes a quote (USDT debited, BRL credited, in one transaction). */
public final class ConversionCreateParams extends AbstractParams {
  private final String quoteId;
  private final String reference;

  private ConversionCreateParams(Builder b) {
    this.quoteId = required(b.quoteId, "quoteId");
    this.reference = b.reference;
  }

  public static Builder builder() {
    return new Builder();
  }

  public String quoteId() {
    return quoteId;
  }

  public String reference() {
    return reference;
  }

  public static final class Builder {
    private String quoteId;
    private String reference;

    private Builder() {}

    /** The {@code qte_…} id of an unexpired quote. Required. */
    public Builder quoteId(String quoteId) {
      this.quoteId = quoteId;
      return this;
    }

    /** Your id for this conversion (optional). */
    public Builder reference(String reference) {
      this.reference = reference;
      return this;
    }

    public ConversionCreateParams build() {
      return new ConversionCreateParams(this);
    }
  }
}
