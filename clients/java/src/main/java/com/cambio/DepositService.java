package com.cambio;

import com.cambio.model.Deposit;
import com.cambio.param.DepositCreateParams;

/**
 * {@code cambio.deposits()}: USDT received on a fresh address on the deposit's network. {@code create(DepositCreateParams)}
 * is {@code POST /v1/deposits} (with an Idempotency-Key), {@code get(id)} {@code GET /v1/deposits/:id}.
 */
public final class DepositService extends ResourceService<Deposit, DepositCreateParams, Deposit> {
  DepositService(CambioClient client) {
    super(client, "/v1/deposits", Deposit.class, Deposit.class);
  }
}
