package com.cambio;

import com.cambio.model.Withdrawal;
import com.cambio.param.WithdrawalCreateParams;

/**
 * {@code cambio.withdrawals()}: USDT sent to an address on TRON or an EVM network.
 * {@code create(WithdrawalCreateParams)} is {@code POST /v1/withdrawals} (with an Idempotency-Key,
 * the same on every retry, so a retried withdrawal is replayed by the API, never made twice),
 * {@code get(id)} {@code GET /v1/withdrawals/:id}.
 */
public final class WithdrawalService extends ResourceService<Withdrawal, WithdrawalCreateParams, Withdrawal> {
  WithdrawalService(CambioClient client) {
    super(client, "/v1/withdrawals", Withdrawal.class, Withdrawal.class);
  }
}
