package com.cambio.examples;

import com.cambio.CambioClient;
import com.cambio.Page;
import com.cambio.RequestOptions;
import com.cambio.WebhookEvent;
import com.cambio.exception.ApiServerException;
import com.cambio.exception.CambioException;
import com.cambio.exception.ConflictException;
import com.cambio.exception.ConnectionException;
import com.cambio.exception.InvalidRequestException;
import com.cambio.exception.RateLimitException;
import com.cambio.exception.RefusedException;
import com.cambio.model.Balance;
import com.cambio.model.Company;
import com.cambio.model.Conversion;
import com.cambio.model.CreatedWebhook;
import com.cambio.model.DeletedWebhook;
import com.cambio.model.Deposit;
import com.cambio.model.Quote;
import com.cambio.model.Webhook;
import com.cambio.model.Withdrawal;
import com.cambio.param.ConversionCreateParams;
import com.cambio.param.ConversionQuoteParams;
import com.cambio.param.DepositCreateParams;
import com.cambio.param.ListParams;
import com.cambio.param.WebhookParams;
import com.cambio.param.WithdrawalCreateParams;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Every Java block of README.md, verbatim (ReadmeExamplesTest checks that each block appears here
 * and runs these against a stand-in API). Outside com.cambio: the public surface only.
 */
@SuppressWarnings("unused")
final class ReadmeExamples {
  private ReadmeExamples() {}

  static CambioClient construct(String apiKey, String apiSecret, String apiUrl) {
    CambioClient cambio = CambioClient.builder()
        .apiKey(apiKey)          // e.g. System.getenv("CAMBIO_API_KEY")
        .apiSecret(apiSecret)    // e.g. System.getenv("CAMBIO_API_SECRET")
        // The API's URL: your stage's ApiUrl stack output,
        // https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1, or the local runtime's
        // as `npm start` prints it, http://127.0.0.1:3000/v1 (with or without the trailing /v1).
        .baseUrl(apiUrl)
        .maxRetries(2)                    // retries after the first try (the default)
        .timeout(Duration.ofSeconds(30))  // per try (the default)
        .build();
    return cambio;
  }

  static void quickstart(String apiKey, String apiSecret, String apiUrl, String rawBody, Map<String, String> headers, String webhookSecret) {
    CambioClient cambio = CambioClient.builder().apiKey(apiKey).apiSecret(apiSecret).baseUrl(apiUrl).build();

    Deposit deposit = cambio.deposits().create(DepositCreateParams.builder()
        .method("usdt").network("tron").reference("order-1").amount("25").build());
    System.out.println("pay " + deposit.amount() + " USDT to " + deposit.address());

    Quote quote = cambio.conversions().quote(ConversionQuoteParams.builder().sourceAmount("10").build());
    Conversion conversion = cambio.conversions().create(ConversionCreateParams.builder().quoteId(quote.id()).build());

    try {
      cambio.withdrawals().create(WithdrawalCreateParams.builder()
          .network("tron").address("TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui").amount("5").reference("payout-1").build());
    } catch (RefusedException e) { // e.getCode() is "INSUFFICIENT_BALANCE"
      System.out.println(e.getCode() + ", request " + e.getRequestId());
    }

    WebhookEvent event = cambio.webhooks().verify(rawBody, headers, webhookSecret); // the RAW body
  }

  static void company(CambioClient cambio) {
    Company company = cambio.company().get();
    System.out.println(company.name() + " (" + company.environment() + ")");
    // tier: "standard" for a new company, "growth" or "scale" once raised (or a tier added later)
    Company.RateLimit limit = company.rateLimit();
    System.out.println(limit.tier() + ": " + limit.requestsPerSecond() + " requests/s, bursts of " + limit.burst());
    Balance balance = cambio.company().balance();
    for (Balance.CurrencyBalance b : balance.balances()) {
      System.out.println(b.currency() + ": " + b.available() + " available, " + b.pending() + " pending, " + b.locked() + " locked");
    }
  }

  static void deposits(CambioClient cambio) {
    Deposit deposit = cambio.deposits().create(DepositCreateParams.builder()
        .method("usdt").network("tron").reference("order-1").amount("25").build());
    System.out.println("pay " + deposit.amount() + " USDT to " + deposit.address() + " on " + deposit.network());

    Deposit now = cambio.deposits().get(deposit.id());
    if (now.status().equals("completed")) System.out.println("credited " + now.creditedAmount());

    // Forward 10% of every confirmed transfer to another TRON address:
    cambio.deposits().create(DepositCreateParams.builder().network("tron").reference("order-2")
        .split(DepositCreateParams.Split.builder().address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").percent("10").build())
        .build());
  }

  static void conversions(CambioClient cambio) {
    Quote quote = cambio.conversions().quote(ConversionQuoteParams.builder()
        .sourceCurrency("USDT").settlementCurrency("BRL").sourceAmount(new BigDecimal("10")).build());
    System.out.println("10 USDT = " + quote.settlementAmount() + " BRL at " + quote.rate() + ", until " + quote.expiresAt());
    Conversion conversion = cambio.conversions().create(ConversionCreateParams.builder().quoteId(quote.id()).build());
    Conversion same = cambio.conversions().get(conversion.id());
  }

  static void withdrawals(CambioClient cambio) {
    try {
      Withdrawal payout = cambio.withdrawals().create(WithdrawalCreateParams.builder()
              .method("usdt").network("tron").address("TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui").amount("5").reference("payout-1").build(),
          RequestOptions.builder().idempotencyKey("payout-1").build());
      System.out.println(payout.id() + " " + payout.status() + ", fee " + payout.fee());
      Withdrawal later = cambio.withdrawals().get(payout.id());
    } catch (RefusedException e) {
      if (!e.getCode().equals("INSUFFICIENT_BALANCE")) throw e;
      System.out.println("top up first (request " + e.getRequestId() + ")");
    }
  }

  static void pagination(CambioClient cambio) {
    Page<Conversion> page = cambio.conversions().list(ListParams.builder().limit(10).build());
    page.data().forEach(c -> System.out.println(c.id()));
    String next = page.nextCursor(); // null on the last page

    for (Conversion c : cambio.conversions().list(ListParams.builder().limit(100).build()).autoPagingIterable()) {
      System.out.println(c.id() + " " + c.sourceAmount() + " USDT = " + c.settlementAmount() + " BRL");
    }
  }

  static void webhooks(CambioClient cambio) {
    CreatedWebhook hook = cambio.webhooks().create(WebhookParams.builder()
        .url("https://example.com/webhooks/cambio").events("deposit.completed", "withdrawal.failed").build());
    String secret = hook.secret(); // whsec_…, shown only now: store it
    cambio.webhooks().update(hook.id(), WebhookParams.builder()
        .url("https://example.com/webhooks/cambio").events("*").description("everything").build());
    Webhook got = cambio.webhooks().get(hook.id());
    List<Webhook> hooks = cambio.webhooks().list().data();
    DeletedWebhook deleted = cambio.webhooks().delete(hook.id()); // deleted.deleted() is true
  }

  static void errors(CambioClient cambio, String quoteId) {
    try {
      cambio.conversions().create(ConversionCreateParams.builder().quoteId(quoteId).build());
    } catch (RefusedException e) {          // 422: QUOTE_EXPIRED, INSUFFICIENT_BALANCE, ...
      System.out.println(e.getCode());
    } catch (ConflictException e) {         // 409: QUOTE_ALREADY_USED, ...
      System.out.println(e.getCode() + " " + e.getDetails());
    } catch (InvalidRequestException e) {   // 400 VALIDATION_FAILED: which fields
      e.getFieldErrors().forEach(f -> System.out.println(f.path() + ": " + f.message()));
    } catch (ConnectionException | ApiServerException | RateLimitException e) {
      // already retried maxRetries times: try again later (a POST with the same idempotency key)
    } catch (CambioException e) {           // the base of every family
      System.out.println(e.getCode() + " HTTP " + e.getStatusCode() + " request " + e.getRequestId());
    }
  }
}
