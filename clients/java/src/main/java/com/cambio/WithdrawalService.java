package com.cambio;

import com.cambio.model.Withdrawal;
import com.cambio.param.WithdrawalCreateParams;

/** {@code cambio.withdrawals()}: USDT sent to a TRON address. */
public final class WithdrawalService extends ApiService {
  WithdrawalService(CambioClient client) {
    super(client);
  }

  /**
   * {@code POST /v1/withdrawals} (with an Idempotency-Key, the same on every retry, so a retried
   * withdrawal is replayed by the API, never made twice).
   */
  public Withdrawal create(WithdrawalCreateParams params) {
    return create(params, null);
  }

  public Withdrawal create(WithdrawalCreateParams params, RequestOptions options) {
    return client.request("POST", "/v1/withdrawals", params, options, Withdrawal.class);
  }

  /** {@code GET /v1/withdrawals/:id}. */
  public Withdrawal get(String id) {
    return get(id, null);
  }

  public Withdrawal get(String id, RequestOptions options) {
    return client.request("GET", "/v1/withdrawals/" + CambioClient.segment(id), null, options, Withdrawal.class);
  }
}
