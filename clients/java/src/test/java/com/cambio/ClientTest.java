package com.cambio;

import static com.cambio.ScriptedServer.created;
import static com.cambio.ScriptedServer.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.CambioException;
import com.cambio.internal.Json;
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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Construction, the base URL, the headers and every call of the surface against a scripted server. */
class ClientTest {
  static CambioClient.Builder valid() {
    return CambioClient.builder().apiKey("ck_live_key").apiSecret("cs_live_super_secret").baseUrl("https://abc123.execute-api.sa-east-1.amazonaws.com/prod/v1");
  }

  @Test
  void refusesAMissingOrEmptyKeyOrSecret() {
    for (var builder : List.of(CambioClient.builder().apiSecret("s").baseUrl("https://x.example.com"), CambioClient.builder().apiKey("").apiSecret("s").baseUrl("https://x.example.com"),
        CambioClient.builder().apiKey("k").baseUrl("https://x.example.com"), CambioClient.builder().apiKey("k").apiSecret("  ").baseUrl("https://x.example.com"))) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class, builder::build);
      assertTrue(error.getMessage().contains("apiKey and apiSecret"), error.getMessage());
    }
  }

  @Test
  void refusesAKeyOrSecretWithALineBreakOrAnotherControlCharacterWithoutEchoingIt() {
    String secret = "cs_live_super_secret";
    for (String bad : new String[] {secret + "\n", secret + "\r\n", secret + "\r\nX-Injected: 1", "\t" + secret, secret + "\u0000", secret + "\u007f", " " + secret, secret + "\u00e9", secret + "\u20ac"}) {
      IllegalArgumentException onSecret = assertThrows(IllegalArgumentException.class, () -> valid().apiSecret(bad).build());
      assertTrue(onSecret.getMessage().contains("apiSecret must be printable ASCII"), onSecret.getMessage());
      assertFalse(onSecret.getMessage().contains(secret), onSecret.getMessage());
      IllegalArgumentException onKey = assertThrows(IllegalArgumentException.class, () -> valid().apiKey("ck_live_" + bad).build());
      assertTrue(onKey.getMessage().contains("apiKey must be printable ASCII"), onKey.getMessage());
      assertFalse(onKey.getMessage().contains(secret), onKey.getMessage());
    }
  }

  @Test
  void refusesAMissingBaseUrlNamingWhereItComesFrom() {
    for (String missing : new String[] {null, "", "   "}) {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> CambioClient.builder().apiKey("k").apiSecret("s").baseUrl(missing).build());
      assertTrue(error.getMessage().contains("ApiUrl"), error.getMessage());
      assertTrue(error.getMessage().contains("npm start"), error.getMessage());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "https://abc123.execute-api.sa-east-1.amazonaws.com/prod/v1",
    "https://abc123.execute-api.sa-east-1.amazonaws.com/prod/v1/",
    "https://abc123.execute-api.sa-east-1.amazonaws.com/prod",
    "https://abc123.execute-api.sa-east-1.amazonaws.com/prod/",
    "HTTPS://ABC123.execute-api.sa-east-1.amazonaws.com/prod/v1",
  })
  void acceptsTheBaseUrlWithOrWithoutV1(String url) {
    assertEquals("https://abc123.execute-api.sa-east-1.amazonaws.com/prod", valid().baseUrl(url).build().baseUrl());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://127.0.0.1:3000/v1", "http://127.9.8.7:3000", "http://localhost:3000/v1", "http://[::1]:3000/v1", "http://LOCALHOST/v1/"})
  void acceptsPlainHttpOnLoopback(String url) {
    assertTrue(valid().baseUrl(url).build().baseUrl().startsWith("http://"));
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://api.example.com/v1", "http://10.0.0.5:3000/v1", "http://128.0.0.1/v1", "http://localhost.example.com/v1"})
  void refusesPlainHttpElsewhere(String url) {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> valid().baseUrl(url).build());
    assertTrue(error.getMessage().contains("plain http") && error.getMessage().contains("loopback"), error.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ftp://api.example.com/v1", "api.example.com/v1", "not a url", "https://", "mailto:ops@example.com", "https://api.example.com/v1?x=1", "https://api.example.com/v1#frag", "http://127.0.0.256/v1"})
  void refusesWhatIsNotAnHttpsUrl(String url) {
    assertThrows(IllegalArgumentException.class, () -> valid().baseUrl(url).build());
  }

  @Test
  void refusesCredentialsInTheUrlWithoutEchoingThem() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> valid().baseUrl("https://user:hunter2@api.example.com/v1").build());
    assertFalse(error.getMessage().contains("hunter2"), error.getMessage());
  }

  @Test
  void theSecretIsNeverShown() throws Exception {
    CambioClient cambio = valid().build();
    assertFalse(cambio.toString().contains("cs_live_super_secret"), cambio.toString());
    assertFalse(valid().toString().contains("cs_live_super_secret"));
    assertTrue(cambio.toString().contains("baseUrl="));
    try (ScriptedServer server = new ScriptedServer((req, n) -> ScriptedServer.failure(401, "AUTH_FAILED"))) {
      CambioClient local = server.client().apiSecret("cs_live_super_secret").build();
      CambioException error = assertThrows(CambioException.class, () -> local.company().get());
      java.io.StringWriter trace = new java.io.StringWriter();
      error.printStackTrace(new java.io.PrintWriter(trace));
      assertFalse(trace.toString().contains("cs_live_super_secret"));
      assertFalse(local.toString().contains("cs_live_super_secret"));
    }
  }

  @Test
  void sendsTheAuthHeadersUserAgentAndJson() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> created(Fixtures.DEPOSIT))) {
      CambioClient cambio = server.client().build();
      cambio.deposits().create(DepositCreateParams.builder().method("usdt").network("tron").reference("order-1").amount(new BigDecimal("25.50")).build());
      ScriptedServer.Seen seen = server.seen().get(0);
      assertEquals("POST", seen.method());
      assertEquals("/v1/deposits", seen.uri());
      assertEquals("ck_test_key", seen.header("X-Api-Key"));
      assertEquals("cs_test_very_secret_value", seen.header("X-Api-Secret"));
      assertEquals("application/json", seen.header("Content-Type"));
      assertEquals("application/json", seen.header("Accept"));
      assertEquals("cambio-java/" + CambioClient.VERSION + " java/" + System.getProperty("java.version"), seen.header("User-Agent"));
      assertTrue(seen.header("User-Agent").matches("cambio-java/" + java.util.regex.Pattern.quote(CambioClient.VERSION) + " java/\\S+"));
      assertEquals("{\"method\":\"usdt\",\"reference\":\"order-1\",\"network\":\"tron\",\"amount\":\"25.5\"}", seen.body());
    }
  }

  @Test
  void aCompanyRateLimitTierAddedLaterIsKept() throws Exception {
    String company = Fixtures.COMPANY.replace("{\"tier\":\"standard\",\"requestsPerSecond\":10,\"burst\":20}", "{\"tier\":\"enterprise\",\"requestsPerSecond\":500,\"burst\":1000}");
    try (ScriptedServer server = new ScriptedServer((req, n) -> ok(company))) {
      assertEquals(new Company.RateLimit("enterprise", 500, 1000), server.client().build().company().get().rateLimit());
    }
  }

  @Test
  void everyCallHitsItsRouteAndReturnsItsRecord() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> {
      String route = req.method() + " " + req.uri();
      return switch (route) {
        case "GET /v1/company" -> ok(Fixtures.COMPANY);
        case "GET /v1/company/balance" -> ok(Fixtures.BALANCE);
        case "POST /v1/deposits", "GET /v1/deposits/dep_1" -> created(Fixtures.DEPOSIT);
        case "POST /v1/withdrawals", "GET /v1/withdrawals/wdr_1" -> created(Fixtures.WITHDRAWAL);
        case "POST /v1/conversions/quote" -> created(Fixtures.QUOTE);
        case "POST /v1/conversions", "GET /v1/conversions/cnv_1" -> created(Fixtures.conversion("cnv_1"));
        case "GET /v1/conversions?limit=5" -> ScriptedServer.json(200, "{\"success\":true,\"data\":[" + Fixtures.conversion("cnv_1") + "],\"pagination\":{\"nextCursor\":null}}");
        case "GET /v1/webhooks" -> ScriptedServer.json(200, "{\"success\":true,\"data\":[" + Fixtures.WEBHOOK + "],\"pagination\":{\"nextCursor\":null}}");
        case "POST /v1/webhooks" -> created(Fixtures.CREATED_WEBHOOK);
        case "GET /v1/webhooks/whk_1", "PUT /v1/webhooks/whk_1" -> ok(Fixtures.WEBHOOK);
        case "DELETE /v1/webhooks/whk_1" -> ok("{\"id\":\"whk_1\",\"deleted\":true}");
        case "GET /v1/deposits/dep%2F..%2Fx%20y" -> ok(Fixtures.DEPOSIT);
        default -> ScriptedServer.failure(404, "NOT_FOUND");
      };
    })) {
      CambioClient cambio = server.client().build();

      Company company = cambio.company().get();
      assertEquals("sandbox", company.environment());
      assertEquals(new Company.RateLimit("standard", 10, 20), company.rateLimit());
      Balance balance = cambio.company().balance();
      assertEquals("25.500000", balance.balances().get(0).available());
      assertEquals("54.00", balance.balances().get(1).available());

      Deposit deposit = cambio.deposits().create(DepositCreateParams.builder().network("tron").reference("order-1").amount("25")
          .split(DepositCreateParams.Split.builder().address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").percent("12.5").build()).build());
      assertEquals("25.000000", deposit.receivedAmount());
      assertEquals(123456789012L, deposit.transactions().get(0).blockNumber());
      assertEquals(new BigDecimal("12.5"), deposit.split().percent());
      assertEquals("exact", cambio.deposits().get("dep_1").amountStatus());

      Withdrawal withdrawal = cambio.withdrawals().create(WithdrawalCreateParams.builder().network("tron").address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").amount("5").reference("payout-1").build());
      assertEquals("1.000000", withdrawal.fee());
      assertNull(withdrawal.txHash());
      assertNull(withdrawal.deliveredAmount());
      assertNull(withdrawal.networkCost());
      assertEquals("pending", cambio.withdrawals().get("wdr_1").status());

      Quote quote = cambio.conversions().quote(ConversionQuoteParams.builder().sourceAmount("10").build());
      assertEquals("5.41230000", quote.rate());
      Conversion conversion = cambio.conversions().create(ConversionCreateParams.builder().quoteId(quote.id()).build());
      assertEquals("54.12", conversion.settlementAmount());
      assertEquals("cnv_1", cambio.conversions().get("cnv_1").id());
      assertEquals(1, cambio.conversions().list(ListParams.builder().limit(5).build()).data().size());

      assertEquals(List.of("*"), cambio.webhooks().list().data().get(0).events());
      CreatedWebhook hook = cambio.webhooks().create(WebhookParams.builder().url("https://example.com/hooks").events("*").build());
      assertTrue(hook.secret().startsWith("whsec_"));
      assertFalse(hook.toString().contains(hook.secret()), hook.toString());
      assertTrue(hook.toString().contains("secret=[hidden]"));
      Webhook got = cambio.webhooks().get("whk_1");
      assertNull(got.description());
      assertTrue(cambio.webhooks().update("whk_1", WebhookParams.builder().url("https://example.com/hooks").events("deposit.completed").enabled(false).build()).enabled());
      DeletedWebhook deleted = cambio.webhooks().delete("whk_1");
      assertTrue(deleted.deleted());
      cambio.deposits().get("dep/../x y");

      List<String> routes = server.seen().stream().map(s -> s.method() + " " + s.uri()).toList();
      assertEquals(List.of("GET /v1/company", "GET /v1/company/balance", "POST /v1/deposits", "GET /v1/deposits/dep_1", "POST /v1/withdrawals", "GET /v1/withdrawals/wdr_1",
          "POST /v1/conversions/quote", "POST /v1/conversions", "GET /v1/conversions/cnv_1", "GET /v1/conversions?limit=5", "GET /v1/webhooks", "POST /v1/webhooks",
          "GET /v1/webhooks/whk_1", "PUT /v1/webhooks/whk_1", "DELETE /v1/webhooks/whk_1", "GET /v1/deposits/dep%2F..%2Fx%20y"), routes);

      // Only POSTs carry an Idempotency-Key; bodies are the params with the API's names, money as strings.
      for (ScriptedServer.Seen seen : server.seen()) {
        assertEquals(seen.method().equals("POST"), seen.header("Idempotency-Key") != null, seen.method() + " " + seen.uri());
      }
      Map<?, ?> depositBody = (Map<?, ?>) Json.parse(server.seen().get(2).body());
      assertEquals(Map.of("method", "usdt", "reference", "order-1", "network", "tron", "amount", "25", "split",
          Map.of("address", "TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", "percent", new BigDecimal("12.5"))), depositBody);
      assertEquals("{\"sourceCurrency\":\"USDT\",\"settlementCurrency\":\"BRL\",\"sourceAmount\":\"10\"}", server.seen().get(6).body());
      assertEquals("{\"url\":\"https://example.com/hooks\",\"events\":[\"deposit.completed\"],\"enabled\":false}", server.seen().get(13).body());
    }
  }

  @Test
  void paramsRefuseWhatTheApiWouldRefuseBeforeSending() {
    assertThrows(IllegalStateException.class, () -> DepositCreateParams.builder().build());
    assertThrows(IllegalStateException.class, () -> WithdrawalCreateParams.builder().network("tron").address("T").reference("r").build());
    assertThrows(IllegalStateException.class, () -> WebhookParams.builder().url("https://example.com").build());
    assertThrows(IllegalStateException.class, () -> DepositCreateParams.Split.builder().address("T").build());
    assertThrows(IllegalStateException.class, () -> ListParams.builder().limit(0).build());
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.withIdempotencyKey(""));
    assertThrows(IllegalArgumentException.class, () -> RequestOptions.withIdempotencyKey("a\nb"));
    assertThrows(IllegalArgumentException.class, () -> valid().build().deposits().get(""));
  }

  @Test
  void networkIsRequiredWithNoDefaultAndBuildRefusesItsAbsenceBeforeSending() throws Exception {
    IllegalStateException deposit = assertThrows(IllegalStateException.class,
        () -> DepositCreateParams.builder().reference("order-1").amount("25").build());
    assertEquals("DepositCreateParams needs network (tron, ethereum, bsc, polygon, arbitrum or solana)", deposit.getMessage());
    IllegalStateException withdrawal = assertThrows(IllegalStateException.class,
        () -> WithdrawalCreateParams.builder().address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").amount("5").reference("payout-1").build());
    assertEquals("WithdrawalCreateParams needs network (tron, ethereum, bsc, polygon, arbitrum or solana)", withdrawal.getMessage());
    // An empty network is refused as a missing one; the method still defaults to usdt.
    assertThrows(IllegalStateException.class, () -> DepositCreateParams.builder().network("").reference("order-1").build());
    assertEquals("usdt", DepositCreateParams.builder().network("tron").reference("order-1").build().method());
    // Nothing reaches the API: the params cannot be built, so create() is never called.
    try (ScriptedServer server = new ScriptedServer((req, n) -> created(Fixtures.DEPOSIT))) {
      CambioClient cambio = server.client().build();
      assertThrows(IllegalStateException.class, () -> cambio.deposits().create(DepositCreateParams.builder().reference("order-1").build()));
      assertThrows(IllegalStateException.class,
          () -> cambio.withdrawals().create(WithdrawalCreateParams.builder().address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").amount("5").reference("payout-1").build()));
      assertEquals(List.of(), server.seen());
    }
  }

  @Test
  void aWithdrawalOnAnEvmNetworkAsksForItsAddressAndSendsTheNetwork() {
    IllegalStateException missing = assertThrows(IllegalStateException.class,
        () -> WithdrawalCreateParams.builder().network("ethereum").amount("5").reference("payout-1").build());
    assertEquals("WithdrawalCreateParams needs address (a TRON, EIP-55 0x or Solana address)", missing.getMessage());
    WithdrawalCreateParams params = WithdrawalCreateParams.builder().network("ethereum")
        .address("0x52908400098527886E0F7030069857D2E4169EE7").amount("5").reference("payout-1").build();
    assertEquals(List.of("usdt", "ethereum"), List.of(params.method(), params.network()));
  }

  /** A Solana wallet (32 bytes on the Ed25519 curve, base58) and a transaction signature (64 bytes, base58). */
  static final String SOLANA_WALLET = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM";
  static final String SOLANA_SIGNATURE = "4fEUp7Zfx1DabEhfjTffrP21NsHSvE1xAoiUWUkTXxbKC2Q2EZE1QMCc9QZQzvibS8tUfTacRNw6UFN3jFMfh5uQ";

  @Test
  void aWithdrawalOnSolanaIsSentNamingItAndItsRecordReadsBack() throws Exception {
    String completed = Fixtures.WITHDRAWAL.replace("\"network\":\"tron\"", "\"network\":\"solana\"").replace("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK", SOLANA_WALLET)
        .replace("\"status\":\"pending\",\"txHash\":null,\"deliveredAmount\":null,\"networkCost\":null", "\"status\":\"completed\",\"txHash\":\"" + SOLANA_SIGNATURE + "\",\"deliveredAmount\":\"5.000000\","
            + "\"networkCost\":{\"asset\":\"SOL\",\"amount\":\"0.002044280\",\"tokenAccountCreated\":true}");
    String deposit = Fixtures.DEPOSIT.replace("\"network\":\"tron\"", "\"network\":\"solana\"").replace("TJRabPrwbZy45sbavfcjinPJC18kjpRTv8", SOLANA_WALLET)
        .replace("\"requiredConfirmations\":19", "\"requiredConfirmations\":32");
    try (ScriptedServer server = new ScriptedServer((req, n) -> created(n == 1 ? completed : deposit))) {
      CambioClient cambio = server.client().build();
      Withdrawal withdrawal = cambio.withdrawals().create(WithdrawalCreateParams.builder().network("solana").address(SOLANA_WALLET).amount("5").reference("payout-1").build());
      assertEquals(List.of("solana", SOLANA_WALLET, "completed", SOLANA_SIGNATURE, "5.000000"),
          List.of(withdrawal.network(), withdrawal.address(), withdrawal.status(), withdrawal.txHash(), withdrawal.deliveredAmount()));
      // What the payout cost Cambio in SOL: the API's decimal string, never a double.
      assertEquals(new Withdrawal.NetworkCost("SOL", "0.002044280", true), withdrawal.networkCost());
      Deposit created = cambio.deposits().create(DepositCreateParams.builder().network("solana").reference("order-1").build());
      assertEquals(List.of("solana", SOLANA_WALLET, 32L), List.of(created.network(), created.address(), created.requiredConfirmations()));
      assertEquals("{\"method\":\"usdt\",\"network\":\"solana\",\"address\":\"" + SOLANA_WALLET + "\",\"amount\":\"5\",\"reference\":\"payout-1\"}", server.seen().get(0).body());
      assertEquals("{\"method\":\"usdt\",\"reference\":\"order-1\",\"network\":\"solana\"}", server.seen().get(1).body());
    }
  }

  @Test
  void moneyFromBigDecimalIsAPlainDecimalString() {
    assertEquals("0.0000001", WithdrawalCreateParams.builder().network("tron").address("T").reference("r").amount(new BigDecimal("1E-7")).build().amount());
    assertEquals("1000", ConversionQuoteParams.builder().sourceAmount(new BigDecimal("1E+3")).build().sourceAmount());
  }

  /** A NUMERIC(20,8) column reads 25 back as 25.00000000: the API refuses more than 6 decimals, zeros included. */
  @Test
  void moneyFromBigDecimalIsSentWithoutTheTrailingZerosOfItsScale() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> created(req.uri().endsWith("/quote") ? Fixtures.QUOTE : req.uri().endsWith("/deposits") ? Fixtures.DEPOSIT : Fixtures.WITHDRAWAL))) {
      CambioClient cambio = server.client().build();
      cambio.withdrawals().create(WithdrawalCreateParams.builder().network("tron").address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").reference("payout-1").amount(new BigDecimal("25.00000000")).build());
      cambio.conversions().quote(ConversionQuoteParams.builder().sourceAmount(new BigDecimal("12.50000000")).build());
      cambio.deposits().create(DepositCreateParams.builder().network("tron").reference("order-1").amount(new BigDecimal("100")).build());
      List<Object> sent = server.seen().stream().map(seen -> (Map<?, ?>) Json.parse(seen.body())).<Object>map(body -> body.containsKey("amount") ? body.get("amount") : body.get("sourceAmount")).toList();
      assertEquals(List.of("25", "12.5", "100"), sent);
    }
    // Only zeros go: a real 7th decimal is sent as it is (the API refuses it), and zero is "0".
    WithdrawalCreateParams.Builder withdrawal = WithdrawalCreateParams.builder().network("tron").address("T").reference("r");
    assertEquals("0.0000001", withdrawal.amount(new BigDecimal("0.00000010")).build().amount());
    assertEquals("25.1234567", withdrawal.amount(new BigDecimal("25.12345670")).build().amount());
    assertEquals("0", withdrawal.amount(new BigDecimal("0.00000000")).build().amount());
    assertEquals("100", withdrawal.amount(new BigDecimal("1.00E+2")).build().amount());
  }
}
