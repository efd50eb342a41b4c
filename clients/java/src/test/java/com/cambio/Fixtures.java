package com.cambio;

/** Records as the API answers them (compact JSON, as Cambio sends it). */
public final class Fixtures {
  private Fixtures() {}

  static final String WITHDRAWAL =
      "{\"id\":\"wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"method\":\"usdt\",\"reference\":\"payout-1\",\"network\":\"tron\",\"address\":\"TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK\","
          + "\"amount\":\"5.000000\",\"fee\":\"1.000000\",\"status\":\"pending\",\"txHash\":null,\"deliveredAmount\":null,\"networkCost\":null,\"failureReason\":null,"
          + "\"createdAt\":\"2026-01-15T12:00:00.000Z\",\"updatedAt\":\"2026-01-15T12:00:00.000Z\",\"completedAt\":null}";

  static final String DEPOSIT =
      "{\"id\":\"dep_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"method\":\"usdt\",\"reference\":\"order-1\",\"network\":\"tron\",\"address\":\"TJRabPrwbZy45sbavfcjinPJC18kjpRTv8\","
          + "\"amount\":\"25.000000\",\"receivedAmount\":\"25.000000\",\"creditedAmount\":\"25.000000\",\"amountStatus\":\"exact\",\"status\":\"completed\","
          + "\"holdReason\":null,\"confirmations\":19,\"requiredConfirmations\":19,\"transactions\":[{\"txHash\":\"abc\",\"amount\":\"25.000000\",\"blockNumber\":123456789012,\"confirmations\":19,\"status\":\"confirmed\"}],"
          + "\"split\":{\"address\":\"TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK\",\"percent\":12.5,\"amount\":null,\"forwardedAmount\":\"3.125000\",\"withdrawalId\":null},"
          + "\"expiresAt\":\"2026-01-16T12:00:00.000Z\",\"createdAt\":\"2026-01-15T12:00:00.000Z\",\"updatedAt\":\"2026-01-15T12:00:00.000Z\"}";

  static final String COMPANY =
      "{\"id\":\"cmp_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"name\":\"Acme\",\"environment\":\"sandbox\",\"status\":\"active\",\"createdAt\":\"2026-01-15T12:00:00.000Z\","
          + "\"rateLimit\":{\"tier\":\"standard\",\"requestsPerSecond\":10,\"burst\":20}}";

  static final String BALANCE =
      "{\"balances\":[{\"currency\":\"USDT\",\"available\":\"25.500000\",\"pending\":\"0.000000\",\"locked\":\"1.000000\"},"
          + "{\"currency\":\"BRL\",\"available\":\"54.00\",\"pending\":\"0.00\",\"locked\":\"0.00\"}],\"updatedAt\":\"2026-01-15T12:00:00.000Z\"}";

  static final String QUOTE =
      "{\"id\":\"qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"sourceCurrency\":\"USDT\",\"settlementCurrency\":\"BRL\",\"sourceAmount\":\"10.000000\",\"settlementAmount\":\"54.12\","
          + "\"rate\":\"5.41230000\",\"expiresAt\":\"2026-01-15T12:00:30.000Z\",\"createdAt\":\"2026-01-15T12:00:00.000Z\"}";

  static String conversion(String id) {
    return "{\"id\":\"" + id + "\",\"quoteId\":\"qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"reference\":null,\"sourceCurrency\":\"USDT\",\"settlementCurrency\":\"BRL\","
        + "\"sourceAmount\":\"10.000000\",\"settlementAmount\":\"54.12\",\"rate\":\"5.41230000\",\"status\":\"completed\","
        + "\"createdAt\":\"2026-01-15T12:00:00.000Z\",\"completedAt\":\"2026-01-15T12:00:00.000Z\"}";
  }

  static final String WEBHOOK =
      "{\"id\":\"whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"url\":\"https://example.com/hooks\",\"events\":[\"*\"],\"description\":null,\"enabled\":true,"
          + "\"createdAt\":\"2026-01-15T12:00:00.000Z\",\"updatedAt\":\"2026-01-15T12:00:00.000Z\"}";

  static final String CREATED_WEBHOOK = WEBHOOK.substring(0, WEBHOOK.length() - 1) + ",\"secret\":\"whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw\"}";
}
