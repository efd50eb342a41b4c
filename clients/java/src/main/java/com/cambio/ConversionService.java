package com.cambio;

import com.cambio.model.Conversion;
import com.cambio.model.Quote;
import com.cambio.param.ConversionCreateParams;
import com.cambio.param.ConversionQuoteParams;
import com.cambio.param.ListParams;

/** {@code cambio.conversions()}: USDT → BRL. */
public final class ConversionService extends ApiService {
  ConversionService(CambioClient client) {
    super(client);
  }

  /** {@code POST /v1/conversions/quote}: a quote valid 30 s. */
  public Quote quote(ConversionQuoteParams params) {
    return quote(params, null);
  }

  public Quote quote(ConversionQuoteParams params, RequestOptions options) {
    return client.request("POST", "/v1/conversions/quote", params, options, Quote.class);
  }

  /** {@code POST /v1/conversions}: executes a quote. */
  public Conversion create(ConversionCreateParams params) {
    return create(params, null);
  }

  public Conversion create(ConversionCreateParams params, RequestOptions options) {
    return client.request("POST", "/v1/conversions", params, options, Conversion.class);
  }

  /** {@code GET /v1/conversions}: the first page, newest first (20 items). */
  public Page<Conversion> list() {
    return list(null, null);
  }

  /** {@code GET /v1/conversions}: one page; {@code autoPagingIterable()} walks them all. */
  public Page<Conversion> list(ListParams params) {
    return list(params, null);
  }

  public Page<Conversion> list(ListParams params, RequestOptions options) {
    return client.page("/v1/conversions", params, options, Conversion.class);
  }

  /** {@code GET /v1/conversions/:id}. */
  public Conversion get(String id) {
    return get(id, null);
  }

  public Conversion get(String id, RequestOptions options) {
    return client.request("GET", "/v1/conversions/" + CambioClient.segment(id), null, options, Conversion.class);
  }
}
