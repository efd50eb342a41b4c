package com.cambio;

import com.cambio.model.Deposit;
import com.cambio.param.DepositCreateParams;

/** {@code cambio.deposits()}: USDT received on a fresh TRON address. */
public final class DepositService extends ApiService {
  DepositService(CambioClient client) {
    super(client);
  }

  /** {@code POST /v1/deposits} (with an Idempotency-Key). */
  public Deposit create(DepositCreateParams params) {
    return create(params, null);
  }

  public Deposit create(DepositCreateParams params, RequestOptions options) {
    return client.request("POST", "/v1/deposits", params, options, Deposit.class);
  }

  /** {@code GET /v1/deposits/:id}. */
  public Deposit get(String id) {
    return get(id, null);
  }

  public Deposit get(String id, RequestOptions options) {
    return client.request("GET", "/v1/deposits/" + CambioClient.segment(id), null, options, Deposit.class);
  }
}
