package com.cambio;

import com.cambio.model.Balance;
import com.cambio.model.Company;

/** {@code cambio.company()}: your company and its balances. */
public final class CompanyService extends ApiService {
  CompanyService(CambioClient client) {
    super(client);
  }

  /** {@code GET /v1/company}. */
  public Company get() {
    return get(null);
  }

  public Company get(RequestOptions options) {
    return client.request("GET", "/v1/company", null, options, Company.class);
  }

  /** {@code GET /v1/company/balance}: USDT and BRL, each {@code available}, {@code pending}, {@code locked}. */
  public Balance balance() {
    return balance(null);
  }

  public Balance balance(RequestOptions options) {
    return client.request("GET", "/v1/company/balance", null, options, Balance.class);
  }
}
