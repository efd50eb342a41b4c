package com.cambio;

import com.cambio.model.Conversion;
import com.cambio.model.Quote;
import com.cambio.param.ConversionCreateParams;
import com.cambio.param.ConversionQuoteParams;

/**
 * {@code cambio.conversions()}: USDT → BRL. {@code quote(ConversionQuoteParams)} is
 * {@code POST /v1/conversions/quote}, {@code create(ConversionCreateParams)} {@code POST
 * /v1/conversions} (executes a quote), {@code list(…)} {@code GET /v1/conversions} and
 * {@code get(id)} {@code GET /v1/conversions/:id}.
 */
public final class ConversionService extends ListingService<Conversion, ConversionCreateParams, Conversion> {
  ConversionService(CambioClient client) {
    super(client, "/v1/conversions", Conversion.class, Conversion.class);
  }

  /** {@code POST /v1/conversions/quote}: a quote valid 30 s. */
  public Quote quote(ConversionQuoteParams params) {
    return quote(params, null);
  }

  /** {@link #quote(ConversionQuoteParams)} with per-call options. */
  public Quote quote(ConversionQuoteParams params, RequestOptions options) {
    return client.request("POST", route + "/quote", params, options, Quote.class);
  }
}
