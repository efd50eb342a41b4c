package com.cambio.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.CambioClient;
import com.cambio.Page;
import com.cambio.RequestOptions;
import com.cambio.WebhookEvent;
import com.cambio.exception.AuthenticationException;
import com.cambio.exception.NotFoundException;
import com.cambio.exception.RefusedException;
import com.cambio.exception.WebhookVerificationException;
import com.cambio.model.Balance;
import com.cambio.model.Company;
import com.cambio.model.Conversion;
import com.cambio.model.CreatedWebhook;
import com.cambio.model.DeletedWebhook;
import com.cambio.model.Deposit;
import com.cambio.model.Quote;
import com.cambio.model.Webhook;
import com.cambio.param.ConversionCreateParams;
import com.cambio.param.ConversionQuoteParams;
import com.cambio.param.DepositCreateParams;
import com.cambio.param.ListParams;
import com.cambio.param.WebhookParams;
import com.cambio.param.WithdrawalCreateParams;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * clients/conformance/scenario.md, step by step, with the client's public surface only (this class
 * is outside com.cambio), against the live runtime the environment names. Skipped only when
 * CAMBIO_API_URL is unset (run alone); the bridge always sets it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ConformanceScenarioTest {
  static final String PAYOUT_ADDRESS = "TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui";

  record Delivery(Map<String, List<String>> headers, byte[] body) {}

  CambioClient cambio;
  HttpServer receiver;
  final List<Delivery> deliveries = new CopyOnWriteArrayList<>();
  String url;
  CreatedWebhook webhook;
  Deposit deposit;
  Conversion conversion;
  Conversion replayedFirst;

  static String env(String name) {
    String value = System.getenv(name);
    return value == null || value.isEmpty() ? null : value;
  }

  // 0. construct, and a receiver that keeps the raw bytes and headers and answers 204
  @BeforeAll
  void construct() throws Exception {
    Assumptions.assumeTrue(env("CAMBIO_API_URL") != null, "CAMBIO_API_URL is unset: the live scenario runs under the bridge (npx vitest run test/clients/java.test.ts)");
    cambio = CambioClient.builder().apiKey(env("CAMBIO_API_KEY")).apiSecret(env("CAMBIO_API_SECRET")).baseUrl(env("CAMBIO_API_URL")).build();
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    receiver.createContext("/", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      deliveries.add(new Delivery(Map.copyOf(exchange.getRequestHeaders()), body));
      exchange.sendResponseHeaders(204, -1);
      exchange.close();
    });
    receiver.start();
    url = "http://127.0.0.1:" + receiver.getAddress().getPort() + "/hooks";
  }

  @AfterAll
  void stop() {
    if (receiver != null) receiver.stop(0);
  }

  @Test
  @Order(1)
  void step1Company() {
    Company company = cambio.company().get();
    assertEquals("sandbox", company.environment());
    assertTrue(company.id().startsWith("cmp_"), company.id());
    // A new company is at the standard tier; its figures are the stage's, whatever they are
    // (long, as every integer of the API: a fractional or missing one fails to decode).
    Company.RateLimit limit = company.rateLimit();
    assertNotNull(limit, "rateLimit");
    assertEquals("standard", limit.tier());
    assertTrue(limit.requestsPerSecond() > 0, limit.toString());
    assertTrue(limit.burst() >= limit.requestsPerSecond(), limit.toString());
    Balance balance = cambio.company().balance();
    assertEquals(List.of("BRL", "USDT"), balance.balances().stream().map(Balance.CurrencyBalance::currency).sorted().toList());
    for (Balance.CurrencyBalance b : balance.balances()) {
      assertNotNull(b.available());
      assertNotNull(b.pending());
      assertNotNull(b.locked());
    }
  }

  @Test
  @Order(2)
  void step2WebhookCreated() {
    webhook = cambio.webhooks().create(WebhookParams.builder().url(url).events("*").build());
    assertTrue(webhook.id().startsWith("whk_"), webhook.id());
    assertTrue(webhook.secret().startsWith("whsec_"));
  }

  @Test
  @Order(3)
  void step3DepositPaidAndCompleted() throws Exception {
    deposit = cambio.deposits().create(DepositCreateParams.builder().method("usdt").network("tron").reference("conformance-" + UUID.randomUUID()).amount("25").build());
    assertEquals("awaiting_payment", deposit.status());
    assertEquals("25.000000", deposit.amount());
    assertNotNull(deposit.address());
    HttpResponse<String> paid = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create(env("CAMBIO_SANDBOX_PAY_URL")))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString("{\"address\":\"" + deposit.address() + "\",\"amount\":\"25\"}"))
            .build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, paid.statusCode(), paid.body());
    Deposit completed = until(() -> cambio.deposits().get(deposit.id()), d -> d.status().equals("completed"), 60_000);
    assertEquals("25.000000", completed.creditedAmount());
    assertEquals("25.000000", completed.receivedAmount());
  }

  @Test
  @Order(4)
  void step4DeliveryVerified() throws Exception {
    Delivery delivery = until(() -> {
      for (Delivery d : deliveries) {
        try {
          WebhookEvent event = cambio.webhooks().verify(d.body(), d.headers(), webhook.secret());
          if (event.type().equals("deposit.completed") && deposit.id().equals(event.data().get("id"))) return d;
        } catch (WebhookVerificationException notThisOne) {
          // keep looking
        }
      }
      return null;
    }, d -> d != null, 30_000);
    WebhookEvent event = cambio.webhooks().verify(delivery.body(), delivery.headers(), webhook.secret());
    assertEquals(deposit.id(), event.deposit().id());
    byte[] tampered = delivery.body().clone();
    tampered[tampered.length - 2] ^= 1;
    assertThrows(WebhookVerificationException.class, () -> cambio.webhooks().verify(tampered, delivery.headers(), webhook.secret()));
  }

  @Test
  @Order(5)
  void step5Conversion() {
    Quote quote = cambio.conversions().quote(ConversionQuoteParams.builder().sourceCurrency("USDT").settlementCurrency("BRL").sourceAmount("10").build());
    assertTrue(quote.id().startsWith("qte_"), quote.id());
    assertNotNull(quote.settlementAmount());
    conversion = cambio.conversions().create(ConversionCreateParams.builder().quoteId(quote.id()).build());
    assertEquals("completed", conversion.status());
    assertEquals(quote.settlementAmount(), conversion.settlementAmount());
  }

  @Test
  @Order(6)
  void step6IdempotentReplay() {
    Quote second = cambio.conversions().quote(ConversionQuoteParams.builder().sourceCurrency("USDT").settlementCurrency("BRL").sourceAmount("1").build());
    RequestOptions options = RequestOptions.builder().idempotencyKey("conformance-" + UUID.randomUUID()).build();
    replayedFirst = cambio.conversions().create(ConversionCreateParams.builder().quoteId(second.id()).build(), options);
    Conversion replayed = cambio.conversions().create(ConversionCreateParams.builder().quoteId(second.id()).build(), options);
    assertEquals(replayedFirst.id(), replayed.id());
    Balance.CurrencyBalance usdt = cambio.company().balance().balances().stream().filter(b -> b.currency().equals("USDT")).findFirst().orElseThrow();
    assertEquals("14.000000", usdt.available());
  }

  @Test
  @Order(7)
  void step7Pagination() {
    Page<Conversion> page = cambio.conversions().list(ListParams.builder().limit(1).build());
    assertEquals(1, page.data().size());
    assertNotNull(page.nextCursor());
    List<String> walked = new ArrayList<>();
    for (Conversion c : cambio.conversions().list(ListParams.builder().limit(1).build()).autoPagingIterable()) walked.add(c.id());
    assertEquals(List.of(replayedFirst.id(), conversion.id()), walked);
  }

  @Test
  @Order(8)
  void step8Refused() {
    RefusedException refused = assertThrows(RefusedException.class, () -> cambio.withdrawals().create(WithdrawalCreateParams.builder()
        .method("usdt").network("tron").address(PAYOUT_ADDRESS).amount("1000").reference("conformance-" + UUID.randomUUID()).build()));
    assertEquals("INSUFFICIENT_BALANCE", refused.getCode());
    assertEquals(422, refused.getStatusCode());
    assertNotNull(refused.getRequestId());
  }

  @Test
  @Order(9)
  void step9Authentication() {
    CambioClient wrong = CambioClient.builder().apiKey(env("CAMBIO_API_KEY")).apiSecret("not-the-secret").baseUrl(env("CAMBIO_API_URL")).build();
    AuthenticationException error = assertThrows(AuthenticationException.class, () -> wrong.company().get());
    assertEquals("AUTH_FAILED", error.getCode());
    assertEquals(401, error.getStatusCode());
  }

  @Test
  @Order(10)
  void step10NotFound() {
    NotFoundException error = assertThrows(NotFoundException.class, () -> cambio.deposits().get("dep_00000000000000000000000000"));
    assertEquals("NOT_FOUND", error.getCode());
    assertEquals(404, error.getStatusCode());
  }

  @Test
  @Order(11)
  void step11WebhookManaged() {
    Webhook updated = cambio.webhooks().update(webhook.id(), WebhookParams.builder().url(url).events("deposit.completed").build());
    assertEquals(List.of("deposit.completed"), updated.events());
    assertEquals(List.of("deposit.completed"), cambio.webhooks().get(webhook.id()).events());
    assertTrue(cambio.webhooks().list().data().stream().anyMatch(w -> w.id().equals(webhook.id())));
    DeletedWebhook deleted = cambio.webhooks().delete(webhook.id());
    assertEquals(webhook.id(), deleted.id());
    assertTrue(deleted.deleted());
    assertThrows(NotFoundException.class, () -> cambio.webhooks().get(webhook.id()));
  }

  static <T> T until(Supplier<T> read, Predicate<T> done, long timeoutMs) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMs;
    for (;;) {
      T value = read.get();
      if (done.test(value)) return value;
      if (System.currentTimeMillis() > deadline) throw new AssertionError("not reached within " + timeoutMs + " ms; last: " + value);
      Thread.sleep(250);
    }
  }
}
