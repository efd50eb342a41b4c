package com.cambio;

import static com.cambio.ScriptedServer.created;
import static com.cambio.ScriptedServer.drop;
import static com.cambio.ScriptedServer.failure;
import static com.cambio.ScriptedServer.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.exception.ApiServerException;
import com.cambio.exception.CambioException;
import com.cambio.exception.ConflictException;
import com.cambio.exception.ConnectionException;
import com.cambio.exception.InvalidRequestException;
import com.cambio.exception.NotFoundException;
import com.cambio.exception.RateLimitException;
import com.cambio.exception.RefusedException;
import com.cambio.model.Withdrawal;
import com.cambio.param.ConversionQuoteParams;
import com.cambio.param.WithdrawalCreateParams;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.Test;

/**
 * Retries against a scripted server: connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE,
 * 429 and 5xx are retried with the same Idempotency-Key; no other 4xx is.
 */
class RetriesTest {
  static final Pattern UUID_V4 = Pattern.compile("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  static final WithdrawalCreateParams PARAMS =
      WithdrawalCreateParams.builder().method("usdt").network("tron").address("TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK").amount("5").reference("payout-1").build();

  @Test
  void retries503Then201WithTheSameIdempotencyKey() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? failure(503, "INTERNAL_ERROR") : created(Fixtures.WITHDRAWAL))) {
      Withdrawal created = server.client().build().withdrawals().create(PARAMS);

      assertEquals("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5", created.id());
      List<ScriptedServer.Seen> seen = server.seen();
      assertEquals(2, seen.size());
      String key = seen.get(0).header("Idempotency-Key");
      assertTrue(UUID_V4.matcher(key).matches(), key);
      assertEquals(key, seen.get(1).header("Idempotency-Key"));
      assertEquals(seen.get(0).body(), seen.get(1).body());
    }
  }

  @Test
  void aNewCallGetsANewKeyAndACallerKeyIsUsedAsIs() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> created(Fixtures.WITHDRAWAL))) {
      CambioClient cambio = server.client().build();
      cambio.withdrawals().create(PARAMS);
      cambio.withdrawals().create(PARAMS);
      cambio.withdrawals().create(PARAMS, RequestOptions.withIdempotencyKey("payout-1-attempt"));
      List<ScriptedServer.Seen> seen = server.seen();
      assertNotEquals(seen.get(0).header("Idempotency-Key"), seen.get(1).header("Idempotency-Key"));
      assertEquals("payout-1-attempt", seen.get(2).header("Idempotency-Key"));
    }
  }

  @Test
  void retries409IdempotencyKeyInUseWithTheSameKey() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? failure(409, "IDEMPOTENCY_KEY_IN_USE") : created(Fixtures.WITHDRAWAL))) {
      server.client().build().withdrawals().create(PARAMS, RequestOptions.withIdempotencyKey("k-409"));
      List<ScriptedServer.Seen> seen = server.seen();
      assertEquals(2, seen.size());
      assertEquals("k-409", seen.get(0).header("Idempotency-Key"));
      assertEquals("k-409", seen.get(1).header("Idempotency-Key"));
    }
  }

  @Test
  void honoursRetryAfterSecondsOn429() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer((req, n) -> n == 1 ? failure(429, "RATE_LIMITED").withHeader("Retry-After", "1") : ok(Fixtures.WITHDRAWAL))) {
      server.client().build().withdrawals().get("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5");
      List<ScriptedServer.Seen> seen = server.seen();
      assertEquals(2, seen.size());
      long waitedMs = (seen.get(1).atNanos() - seen.get(0).atNanos()) / 1_000_000;
      assertTrue(waitedMs >= 950, "waited " + waitedMs + " ms");
    }
  }

  @Test
  void honoursRetryAfterAsAnHttpDate() throws Exception {
    String soon = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(3));
    try (ScriptedServer server =
        new ScriptedServer((req, n) -> n == 1 ? failure(503, "PRICE_UNAVAILABLE").withHeader("Retry-After", soon) : ok(Fixtures.WITHDRAWAL))) {
      server.client().build().withdrawals().get("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5");
      List<ScriptedServer.Seen> seen = server.seen();
      long waitedMs = (seen.get(1).atNanos() - seen.get(0).atNanos()) / 1_000_000;
      // The date has a 1 s resolution and was taken before the first try: well above the 5-20 ms backoff, at most 3 s.
      assertTrue(waitedMs >= 500 && waitedMs < 3_500, "waited " + waitedMs + " ms");
    }
  }

  @Test
  void aRetryAfterBeyondTheCapFallsBackToTheBackoff() throws Exception {
    try (ScriptedServer server =
        new ScriptedServer((req, n) -> n == 1 ? failure(429, "RATE_LIMITED").withHeader("Retry-After", "3600") : ok(Fixtures.WITHDRAWAL))) {
      long start = System.nanoTime();
      server.client().build().withdrawals().get("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5");
      assertTrue((System.nanoTime() - start) / 1_000_000 < 2_000);
      assertEquals(2, server.seen().size());
    }
  }

  @Test
  void givesUpAfterMaxRetriesWithTheLastErrorTypedAndBacksOffWithinTheCap() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(503, "PRICE_UNAVAILABLE"))) {
      CambioClient cambio = server.client().maxRetries(3).initialRetryDelay(Duration.ofMillis(20)).maxRetryDelay(Duration.ofMillis(40)).build();

      ApiServerException error = assertThrows(ApiServerException.class,
          () -> cambio.conversions().quote(ConversionQuoteParams.builder().sourceCurrency("USDT").settlementCurrency("BRL").sourceAmount("10").build()));

      assertEquals("PRICE_UNAVAILABLE", error.getCode());
      assertEquals(503, error.getStatusCode());
      assertEquals("req_4", error.getRequestId());
      List<ScriptedServer.Seen> seen = server.seen();
      assertEquals(4, seen.size());
      for (int i = 1; i < seen.size(); i++) {
        long waitedMs = (seen.get(i).atNanos() - seen.get(i - 1).atNanos()) / 1_000_000;
        assertTrue(waitedMs >= 9 && waitedMs < 40 + 500, "wait " + i + " was " + waitedMs + " ms");
      }
      assertEquals(1, seen.stream().map(s -> s.header("Idempotency-Key")).collect(Collectors.toSet()).size());
    }
  }

  @Test
  void theBackoffIsHalfToAllOfTheCappedExponentialDelay() {
    CambioClient cambio = CambioClient.builder().apiKey("k").apiSecret("s").baseUrl("https://api.example.com/v1").build();
    for (int attempt = 0; attempt < 8; attempt++) {
      long ceiling = Math.min(5_000, 500L << attempt);
      for (int i = 0; i < 50; i++) {
        long delay = cambio.backoff(attempt);
        assertTrue(delay >= ceiling / 2 && delay <= ceiling, "attempt " + attempt + ": " + delay);
      }
    }
  }

  @Test
  void doesNotRetry400Or422OrOther409() throws Exception {
    for (var failure : List.of(failure(400, "VALIDATION_FAILED"), failure(422, "INSUFFICIENT_BALANCE"), failure(409, "DUPLICATE_REFERENCE"), failure(401, "AUTH_FAILED"), failure(404, "NOT_FOUND"))) {
      try (ScriptedServer server = new ScriptedServer((req, n) -> failure)) {
        CambioException error = assertThrows(CambioException.class, () -> server.client().build().withdrawals().create(PARAMS));
        assertEquals(failure.status(), error.getStatusCode());
        assertEquals(1, server.seen().size(), "status " + failure.status() + " was retried");
      }
    }
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(422, "INSUFFICIENT_BALANCE"))) {
      assertThrows(RefusedException.class, () -> server.client().build().withdrawals().create(PARAMS));
    }
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(400, "VALIDATION_FAILED"))) {
      assertThrows(InvalidRequestException.class, () -> server.client().build().withdrawals().create(PARAMS));
    }
  }

  @Test
  void retriesADroppedConnectionWithTheSameKey() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? drop() : created(Fixtures.WITHDRAWAL))) {
      server.client().build().withdrawals().create(PARAMS);
      List<ScriptedServer.Seen> seen = server.seen();
      assertEquals(2, seen.size());
      assertEquals(seen.get(0).header("Idempotency-Key"), seen.get(1).header("Idempotency-Key"));
    }
  }

  @Test
  void connectionRefusedIsAConnectionExceptionAfterTheRetries() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    CambioClient cambio = CambioClient.builder().apiKey("ck_k").apiSecret("cs_secret_value").baseUrl("http://127.0.0.1:" + port + "/v1")
        .initialRetryDelay(Duration.ofMillis(5)).maxRetryDelay(Duration.ofMillis(10)).build();
    ConnectionException error = assertThrows(ConnectionException.class, () -> cambio.company().get());
    assertEquals("CONNECTION_FAILED", error.getCode());
    assertEquals(null, error.getStatusCode());
    assertTrue(error.getMessage().contains("127.0.0.1:" + port), error.getMessage());
    assertTrue(!error.getMessage().contains("cs_secret_value"));
  }

  @Test
  void aTimeoutIsRetriedAndThenATimeoutConnectionException() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> ok(Fixtures.COMPANY).delayed(n <= 2 ? 4_000 : 0))) {
      // Two slow answers, then a quick one: retried through. The quick one is given a second, as a
      // loaded CI machine (the suites side by side on 2 cores) once took more than 300 ms to answer it.
      CambioClient cambio = server.client().timeout(Duration.ofMillis(1_000)).build();
      assertEquals("Acme", cambio.company().get().name());
      assertEquals(3, server.seen().size());
    }
    try (ScriptedServer server = new ScriptedServer((req, n) -> ok(Fixtures.COMPANY).delayed(1_500))) {
      CambioClient cambio = server.client().timeout(Duration.ofMillis(200)).maxRetries(1).build();
      ConnectionException error = assertThrows(ConnectionException.class, () -> cambio.company().get());
      assertEquals("TIMEOUT", error.getCode());
      assertEquals(2, server.seen().size());
    }
  }

  @Test
  void perCallMaxRetriesOverridesTheClients() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(502, "INTERNAL_ERROR"))) {
      CambioClient cambio = server.client().maxRetries(4).build();
      assertThrows(ApiServerException.class, () -> cambio.company().get(RequestOptions.builder().maxRetries(0).build()));
      assertEquals(1, server.seen().size());
    }
  }

  @Test
  void retriesA429WithoutRetryAfterAndReportsRateLimit() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(429, "RATE_LIMITED"))) {
      RateLimitException error = assertThrows(RateLimitException.class, () -> server.client().build().company().get());
      assertEquals(3, server.seen().size());
      assertEquals("RATE_LIMITED", error.getCode());
      assertEquals(429, error.getStatusCode());
    }
  }

  /** A CDN's, WAF's or proxy's 429 (no error envelope) is a rate limit too: retried, Retry-After honoured, RateLimitException at the end. */
  @Test
  void a429WithoutTheEnvelopeIsARateLimitRetriedAsOne() throws Exception {
    String page = "<html><body><h1>429 Too Many Requests</h1></body></html>";
    List<ScriptedServer.Reply> answers = List.of(ScriptedServer.raw(429, "text/plain", "Too Many Requests"), ScriptedServer.raw(429, "text/html", page), ScriptedServer.json(429, "{\"message\":\"Too Many Requests\"}"));
    for (ScriptedServer.Reply tooMany : answers) {
      List<ScriptedServer.Seen> seen = retriedOnce(tooMany.withHeader("Retry-After", "1"));
      long waitedMs = (seen.get(1).atNanos() - seen.get(0).atNanos()) / 1_000_000;
      assertTrue(waitedMs >= 950, "waited " + waitedMs + " ms, not the Retry-After");
      RateLimitException error = raisedAfterRetries(tooMany, RateLimitException.class);
      assertEquals("RATE_LIMITED", error.getCode());
      assertEquals(429, error.getStatusCode());
      assertEquals("req_3", error.getRequestId());
    }
  }

  @Test
  void a5xxWithoutTheEnvelopeIsAnApiServerErrorRetriedAsOne() throws Exception {
    for (ScriptedServer.Reply down : List.of(ScriptedServer.raw(502, "text/html", "<html>Bad Gateway</html>"), ScriptedServer.raw(503, "text/plain", ""), ScriptedServer.json(504, "{\"message\":\"Gateway Timeout\"}"))) {
      retriedOnce(down);
      assertEquals(down.status(), raisedAfterRetries(down, ApiServerException.class).getStatusCode());
    }
  }

  /** {@code reply} once, then a withdrawal: the client tries again and answers the withdrawal; the two requests the server saw. */
  private static List<ScriptedServer.Seen> retriedOnce(ScriptedServer.Reply reply) throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? reply : ok(Fixtures.WITHDRAWAL))) {
      assertEquals("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5", server.client().build().withdrawals().get("wdr_01JBZ6W1V7Q8R9S0T1U2V3W4X5").id());
      assertEquals(2, server.seen().size(), reply.body());
      return server.seen();
    }
  }

  /** {@code reply} every time: the client's three tries, then {@code family}. */
  private static <E extends CambioException> E raisedAfterRetries(ScriptedServer.Reply reply, Class<E> family) throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> reply)) {
      E error = assertThrows(family, () -> server.client().build().company().get(), reply.body());
      assertEquals(3, server.seen().size());
      return error;
    }
  }

  static final String WEBHOOK_ID = "whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5";

  /**
   * A DELETE whose answer was lost (a 5xx, a dropped connection, a timeout) is retried; the webhook
   * is gone by then, so the retry gets 404. That is the deletion asked for, answered as the first
   * try would have been.
   */
  @Test
  void aDeleteRetriedAfterALostAnswerAndAnswered404IsDeleted() throws Exception {
    for (ScriptedServer.Reply lost : List.of(
        failure(503, "INTERNAL_ERROR"),
        ScriptedServer.raw(502, "text/html", "<html>Bad Gateway</html>"),
        drop(),
        ok("{\"id\":\"" + WEBHOOK_ID + "\",\"deleted\":true}").delayed(1_500))) {
      try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? lost : failure(404, "NOT_FOUND"))) {
        CambioClient cambio = server.client().timeout(Duration.ofMillis(lost.delayMillis() > 0 ? 400 : 5_000)).build();
        com.cambio.model.DeletedWebhook deleted = cambio.webhooks().delete(WEBHOOK_ID);
        assertEquals(WEBHOOK_ID, deleted.id());
        assertTrue(deleted.deleted());
        assertEquals(List.of("DELETE", "DELETE"), server.seen().stream().map(ScriptedServer.Seen::method).toList(), lost.toString());
      }
    }
  }

  @Test
  void aDeleteAnswered404ToItsFirstTryIsNotFound() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? failure(404, "NOT_FOUND") : ok("{\"id\":\"" + WEBHOOK_ID + "\",\"deleted\":true}"))) {
      NotFoundException error = assertThrows(NotFoundException.class, () -> server.client().build().webhooks().delete(WEBHOOK_ID));
      assertEquals("NOT_FOUND", error.getCode());
      assertEquals(1, server.seen().size());
    }
    // A 429 did nothing: the 404 after it is the webhook's own answer.
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? failure(429, "RATE_LIMITED") : failure(404, "NOT_FOUND"))) {
      assertThrows(NotFoundException.class, () -> server.client().build().webhooks().delete(WEBHOOK_ID));
      assertEquals(2, server.seen().size());
    }
    // Only a DELETE: a GET retried into a 404 is NotFound.
    try (ScriptedServer server = new ScriptedServer((req, n) -> n == 1 ? failure(503, "INTERNAL_ERROR") : failure(404, "NOT_FOUND"))) {
      assertThrows(NotFoundException.class, () -> server.client().build().webhooks().get(WEBHOOK_ID));
    }
  }

  /**
   * A DELETE whose first try never reached the API (the connection refused, as by a port closed for
   * a moment, or its host not found) deleted nothing: a 404 to its retry is the webhook's own
   * answer, a NotFoundException, never "deleted".
   */
  @Test
  void aDeleteWhoseFirstTryWasRefusedBeforeConnectingThen404IsNotFound() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    AtomicReference<ScriptedServer> server = new AtomicReference<>();
    // Nothing listens on the port for the first try; once it is refused, the API opens there, well
    // within the backoff, and answers the retry 404.
    HttpClient opensOnRefusal = new DelegatingHttpClient(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      @Override
      public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
        return super.sendAsync(request, handler).whenComplete((response, failure) -> {
          if (failure == null || server.get() != null) return;
          try {
            server.set(new ScriptedServer(port, (req, n) -> failure(404, "NOT_FOUND")));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
      }
    };
    try {
      CambioClient cambio = CambioClient.builder().apiKey("ck_k").apiSecret("cs_secret_value").baseUrl("http://127.0.0.1:" + port + "/v1").httpClient(opensOnRefusal)
          .initialRetryDelay(Duration.ofMillis(5)).maxRetryDelay(Duration.ofMillis(20)).build();
      NotFoundException error = assertThrows(NotFoundException.class, () -> cambio.webhooks().delete(WEBHOOK_ID));
      assertEquals("NOT_FOUND", error.getCode());
      assertEquals(List.of("DELETE"), server.get().seen().stream().map(ScriptedServer.Seen::method).toList());
    } finally {
      if (server.get() != null) server.get().close();
    }
  }

  /** An HttpClient that hands every call to another, for a test to watch or act between tries. */
  static class DelegatingHttpClient extends HttpClient {
    private final HttpClient http;

    DelegatingHttpClient(HttpClient http) {
      this.http = http;
    }

    @Override public Optional<CookieHandler> cookieHandler() { return http.cookieHandler(); }
    @Override public Optional<Duration> connectTimeout() { return http.connectTimeout(); }
    @Override public Redirect followRedirects() { return http.followRedirects(); }
    @Override public Optional<ProxySelector> proxy() { return http.proxy(); }
    @Override public SSLContext sslContext() { return http.sslContext(); }
    @Override public SSLParameters sslParameters() { return http.sslParameters(); }
    @Override public Optional<Authenticator> authenticator() { return http.authenticator(); }
    @Override public Version version() { return http.version(); }
    @Override public Optional<Executor> executor() { return http.executor(); }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler) throws IOException, InterruptedException {
      return http.send(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      return http.sendAsync(request, handler);
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
      return http.sendAsync(request, handler, push);
    }
  }

  @Test
  void aConflictThatIsNotInUseIsNotRetried() throws Exception {
    try (ScriptedServer server = new ScriptedServer((req, n) -> failure(409, "QUOTE_ALREADY_USED"))) {
      ConflictException error = assertThrows(ConflictException.class,
          () -> server.client().build().conversions().create(com.cambio.param.ConversionCreateParams.builder().quoteId("qte_x").build()));
      assertEquals("QUOTE_ALREADY_USED", error.getCode());
      assertEquals(Set.of(1), Set.of(server.seen().size()));
    }
  }
}
