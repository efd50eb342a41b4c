package com.cambio;

import com.cambio.exception.ApiServerException;
import com.cambio.exception.AuthenticationException;
import com.cambio.exception.CambioException;
import com.cambio.exception.ConflictException;
import com.cambio.exception.ConnectionException;
import com.cambio.exception.InvalidRequestException;
import com.cambio.exception.InvalidResponseException;
import com.cambio.exception.NotFoundException;
import com.cambio.exception.RateLimitException;
import com.cambio.exception.RefusedException;
import com.cambio.internal.Decoder;
import com.cambio.internal.Json;
import com.cambio.internal.JsonException;
import com.cambio.param.ListParams;
import com.cambio.param.Params;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The Cambio API. Build one per (API key, secret, base URL) and share it: an instance is
 * immutable and safe to use from many threads at once (it holds one {@link HttpClient}, which
 * pools connections).
 *
 * <pre>{@code
 * CambioClient cambio = CambioClient.builder().apiKey(key).apiSecret(secret).baseUrl(apiUrl).build();
 * Deposit d = cambio.deposits().create(DepositCreateParams.builder().network("tron").reference("order-1").amount("25").build());
 * }</pre>
 *
 * Every POST carries an {@code Idempotency-Key} (a UUID v4 unless you pass one in {@link
 * RequestOptions}), the same on each retry of that call, so a retried withdrawal is replayed by the
 * API, never made twice. Connection failures, timeouts, 429, 5xx and 409 {@code
 * IDEMPOTENCY_KEY_IN_USE} are retried (2 times by default) after 0.5 s × 2^n (capped at 5 s, with
 * jitter), or after the answer's {@code Retry-After} when it is at most 60 s.
 */
public final class CambioClient {
  /** This client's version, the one place it is written (pom.xml's must match; a test checks). */
  public static final String VERSION = "0.4.0";

  /** Where the base URL comes from, for the errors that ask for one: there is no default host. */
  static final String WHERE_THE_URL_IS =
      "the `ApiUrl` output of your Cambio stack (printed by `cdk deploy`, e.g. https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), "
          + "or for the local runtime the API URL `npm start` prints (http://127.0.0.1:3000/v1)";

  private static final Pattern LOOPBACK_V4 = Pattern.compile("127\\.(\\d{1,3})\\.(\\d{1,3})\\.(\\d{1,3})");

  private final String baseUrl;
  private final String apiKey;
  private final String apiSecret;
  private final int maxRetries;
  private final Duration timeout;
  private final Duration initialRetryDelay;
  private final Duration maxRetryDelay;
  private final Duration maxRetryAfter;
  private final HttpClient http;
  private final String userAgent;

  private final CompanyService company = new CompanyService(this);
  private final DepositService deposits = new DepositService(this);
  private final WithdrawalService withdrawals = new WithdrawalService(this);
  private final ConversionService conversions = new ConversionService(this);
  private final WebhookService webhooks = new WebhookService(this);

  private CambioClient(Builder b) {
    if (b.apiKey == null || b.apiKey.isBlank() || b.apiSecret == null || b.apiSecret.isBlank()) {
      throw new IllegalArgumentException(
          "CambioClient.builder().apiKey(…).apiSecret(…).baseUrl(…) needs apiKey and apiSecret: the pair `npm start` prints, "
              + "or one made in the dashboard (Integrations → API keys) or by `npm run company:create`");
    }
    checkCredential("apiKey", b.apiKey);
    checkCredential("apiSecret", b.apiSecret);
    this.baseUrl = baseUrlOf(b.baseUrl);
    this.apiKey = b.apiKey;
    this.apiSecret = b.apiSecret;
    this.maxRetries = b.maxRetries;
    this.timeout = b.timeout;
    this.initialRetryDelay = b.initialRetryDelay;
    this.maxRetryDelay = b.maxRetryDelay;
    this.maxRetryAfter = b.maxRetryAfter;
    this.http = b.httpClient != null ? b.httpClient : HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(b.timeout).build();
    this.userAgent = "cambio-java/" + VERSION + " java/" + System.getProperty("java.version");
  }

  /**
   * The key and secret go in headers: a line break (a secret read from a file keeps its newline), a
   * space or any other character outside printable ASCII is refused here, without echoing the value,
   * rather than by {@code HttpRequest.Builder.header}, whose message quotes it.
   */
  private static void checkCredential(String name, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x21 || c > 0x7e) {
        throw new IllegalArgumentException(name + " must be printable ASCII without spaces (check for a stray newline or quote around it)");
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public CompanyService company() {
    return company;
  }

  public DepositService deposits() {
    return deposits;
  }

  public WithdrawalService withdrawals() {
    return withdrawals;
  }

  public ConversionService conversions() {
    return conversions;
  }

  public WebhookService webhooks() {
    return webhooks;
  }

  /** The base URL the routes are appended to, normalised (no trailing {@code /v1}). */
  public String baseUrl() {
    return baseUrl;
  }

  /** What the client sends as {@code User-Agent}: {@code cambio-java/<VERSION> java/17.0.x}. */
  public String userAgent() {
    return userAgent;
  }

  /** Never shows the secret (nor the whole key). */
  @Override
  public String toString() {
    String key = apiKey.length() > 8 ? apiKey.substring(0, 8) + "…" : "…";
    return "CambioClient{baseUrl=" + baseUrl + ", apiKey=" + key + ", apiSecret=[hidden], maxRetries=" + maxRetries + ", timeout=" + timeout + "}";
  }

  // ---------------------------------------------------------------------------------------------

  private record Answer(int status, Object data, Object pagination, String requestId) {}

  <T> T request(String method, String path, Params body, RequestOptions options, Class<T> type) {
    if (("POST".equals(method) || "PUT".equals(method)) && body == null) throw new IllegalArgumentException("params must not be null");
    Answer answer = send(method, path, body, options);
    return decode(answer, answer.data, type);
  }

  /**
   * A DELETE that answers {@code goneIsDone} (the record a successful delete answers) when a retry
   * gets 404 after a try that may have reached the API (a timeout, a lost connection, a 5xx): that
   * try deleted it and its answer was lost. A 404 to the first try stays a NotFoundException, and so
   * does one after tries that never connected (refused, host not found) or were answered 429.
   */
  <T> T delete(String path, RequestOptions options, Map<String, Object> goneIsDone, Class<T> type) {
    Answer answer = send("DELETE", path, null, options, goneIsDone);
    return decode(answer, answer.data, type);
  }

  <T> Page<T> page(String path, ListParams params, RequestOptions options, Class<T> type) {
    ListParams query = params == null ? ListParams.none() : params;
    List<String> parts = new ArrayList<>();
    if (query.limit() != null) parts.add("limit=" + query.limit());
    if (query.cursor() != null) parts.add("cursor=" + URLEncoder.encode(query.cursor(), StandardCharsets.UTF_8));
    Answer answer = send("GET", parts.isEmpty() ? path : path + "?" + String.join("&", parts), null, options);
    if (!(answer.data instanceof List<?> items)) {
      throw new InvalidResponseException("GET " + path + " answered without a list in data (INVALID_RESPONSE)", "INVALID_RESPONSE", answer.status, answer.requestId, null, null);
    }
    List<T> data = new ArrayList<>(items.size());
    for (Object item : items) data.add(decode(answer, item, type));
    String nextCursor = answer.pagination instanceof Map<?, ?> p && p.get("nextCursor") instanceof String c && !c.isEmpty() ? c : null;
    return new Page<>(data, nextCursor, answer.requestId, cursor -> page(path, query.withCursor(cursor), options, type), query.cursor());
  }

  private <T> T decode(Answer answer, Object json, Class<T> type) {
    try {
      return Decoder.decode(json, type);
    } catch (JsonException e) {
      throw new InvalidResponseException(
          "The answer's data is not a " + type.getSimpleName() + ": " + e.getMessage() + " (INVALID_RESPONSE" + (answer.requestId == null ? "" : ", request " + answer.requestId) + ")",
          "INVALID_RESPONSE", answer.status, answer.requestId, null, e);
    }
  }

  private Answer send(String method, String path, Params body, RequestOptions options) {
    return send(method, path, body, options, null);
  }

  private Answer send(String method, String path, Params body, RequestOptions options, Object goneIsDone) {
    String url = baseUrl + path;
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url))
        .timeout(timeout)
        .header("X-Api-Key", apiKey)
        .header("X-Api-Secret", apiSecret)
        .header("Accept", "application/json")
        .header("User-Agent", userAgent);
    if (body != null) {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(Json.write(body.toMap()), StandardCharsets.UTF_8));
    } else {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    }
    // One key per call, kept across its retries: the API replays the first answer instead of doing
    // the work again (api-contract.md, Conventions: Idempotency-Key).
    if ("POST".equals(method)) {
      request.header("Idempotency-Key", options != null && options.idempotencyKey() != null ? options.idempotencyKey() : UUID.randomUUID().toString());
    }
    HttpRequest built = request.build();
    int retries = options != null && options.maxRetries() != null ? options.maxRetries() : maxRetries;

    boolean mayHaveBeenDone = false; // an earlier try may have done the work (its answer lost, or a 5xx)
    for (int attempt = 0; ; attempt++) {
      HttpResponse<byte[]> response;
      try {
        response = exchange(built);
      } catch (ConnectionException error) {
        if (attempt >= retries || Thread.currentThread().isInterrupted()) throw error;
        mayHaveBeenDone |= !neverConnected(error);
        sleep(backoff(attempt));
        continue;
      }
      String requestId = response.headers().firstValue("x-request-id").orElse(null);
      int status = response.statusCode();
      Object json;
      try {
        json = Json.parse(new String(response.body(), StandardCharsets.UTF_8));
      } catch (JsonException e) {
        json = e;
      }
      Map<?, ?> envelope = json instanceof Map<?, ?> m ? m : null;
      if (status >= 200 && status < 300 && envelope != null && Boolean.TRUE.equals(envelope.get("success")) && envelope.containsKey("data")) {
        return new Answer(status, envelope.get("data"), envelope.get("pagination"), requestId);
      }
      CambioException error = errorFrom(status, envelope, requestId, method, path);
      if (goneIsDone != null && mayHaveBeenDone && error instanceof NotFoundException) {
        return new Answer(status, goneIsDone, null, requestId);
      }
      if (attempt >= retries || !retryable(error)) throw error;
      if (error instanceof ApiServerException) mayHaveBeenDone = true;
      Long retryAfter = retryAfterMillis(response);
      sleep(retryAfter != null ? retryAfter : backoff(attempt));
    }
  }

  private HttpResponse<byte[]> exchange(HttpRequest request) {
    String what = request.method() + " " + request.uri();
    CompletableFuture<HttpResponse<byte[]>> future = http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray());
    try {
      // The request's own timeout covers the wait for the headers; this one the whole try.
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      future.cancel(true);
      throw new ConnectionException("No answer within " + timeout.toMillis() + " ms (" + what + ") (TIMEOUT)", "TIMEOUT", null, null, null, e);
    } catch (InterruptedException e) {
      future.cancel(true);
      Thread.currentThread().interrupt();
      throw new ConnectionException("Interrupted while waiting for Cambio (" + what + ") (CONNECTION_FAILED)", "CONNECTION_FAILED", null, null, null, e);
    } catch (CancellationException e) {
      throw new ConnectionException("Cancelled (" + what + ") (CONNECTION_FAILED)", "CONNECTION_FAILED", null, null, null, e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (cause instanceof HttpTimeoutException) {
        throw new ConnectionException("No answer within " + timeout.toMillis() + " ms (" + what + "): " + cause.getMessage() + " (TIMEOUT)", "TIMEOUT", null, null, null, cause);
      }
      if (cause instanceof IOException || cause instanceof java.io.UncheckedIOException) {
        throw new ConnectionException("Could not reach Cambio (" + what + "): " + cause + " (CONNECTION_FAILED)", "CONNECTION_FAILED", null, null, null, cause);
      }
      if (cause instanceof RuntimeException runtime) throw runtime;
      throw new ConnectionException("Could not reach Cambio (" + what + "): " + cause + " (CONNECTION_FAILED)", "CONNECTION_FAILED", null, null, null, cause);
    }
  }

  /**
   * Whether a failed try ended before its connection was made (refused, its host not found, the
   * connect timeout): it never reached the API, so it did nothing, and a DELETE's 404 on the retry
   * is the record's own answer. The HttpClient reports the first two as a ConnectException. A
   * timeout of the whole try may have reached the API, so it is not one of these.
   */
  private static boolean neverConnected(ConnectionException error) {
    Throwable cause = error.getCause();
    for (int depth = 0; cause != null && depth < 8; depth++, cause = cause.getCause()) {
      if (cause instanceof java.net.ConnectException || cause instanceof java.net.UnknownHostException || cause instanceof java.net.http.HttpConnectTimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** The one mapping from an answer to its error family (as the Node client's errorFromResponse). */
  static CambioException errorFrom(int status, Map<?, ?> envelope, String requestId, String method, String path) {
    Map<?, ?> error = envelope != null && Boolean.FALSE.equals(envelope.get("success")) && envelope.get("error") instanceof Map<?, ?> e && e.get("code") instanceof String ? e : null;
    String where = requestId == null ? "" : ", request " + requestId;
    if (error == null) {
      // Not the API's envelope: a proxy's page, a truncated body, an unexpected shape. A 5xx is
      // ApiServer and a 429 RateLimit, both retried; anything else is an invalid response.
      if (status >= 500) {
        return new ApiServerException("HTTP " + status + " without the API's JSON envelope (" + method + " " + path + ") (INTERNAL_ERROR" + where + ")", "INTERNAL_ERROR", status, requestId, null, null);
      }
      if (status == 429) {
        // A CDN's, WAF's or proxy's "Too Many Requests": a rate limit all the same, retried alike.
        return new RateLimitException("HTTP 429 without the API's JSON envelope (" + method + " " + path + ") (RATE_LIMITED" + where + ")", "RATE_LIMITED", status, requestId, null, null);
      }
      return new InvalidResponseException("HTTP " + status + " without the API's envelope (" + method + " " + path + ") (INVALID_RESPONSE" + where + ")", "INVALID_RESPONSE", status, requestId, null, null);
    }
    String code = (String) error.get("code");
    String message = (error.get("message") instanceof String m ? m : "HTTP " + status) + " (" + code + where + ")";
    Object details = Json.frozen(error.get("details"));
    if (status == 401) return new AuthenticationException(message, code, status, requestId, details, null);
    if (status == 404) return new NotFoundException(message, code, status, requestId, details, null);
    if (status == 409) return new ConflictException(message, code, status, requestId, details, null);
    if (status == 422) return new RefusedException(message, code, status, requestId, details, null);
    if (status == 429) return new RateLimitException(message, code, status, requestId, details, null);
    if (status >= 500) return new ApiServerException(message, code, status, requestId, details, null);
    if (status >= 400) return new InvalidRequestException(message, code, status, requestId, details, null);
    return new InvalidResponseException(message, "INVALID_RESPONSE", status, requestId, details, null);
  }

  /** Connection failures and timeouts, 429, 5xx, and 409 IDEMPOTENCY_KEY_IN_USE (the first try is still running). */
  static boolean retryable(CambioException error) {
    return error instanceof RateLimitException
        || error instanceof ApiServerException
        || error instanceof ConnectionException
        || (error instanceof ConflictException && "IDEMPOTENCY_KEY_IN_USE".equals(error.getCode()));
  }

  /** A random delay between half and all of min(maxRetryDelay, initialRetryDelay × 2^attempt). */
  long backoff(int attempt) {
    double ceiling = Math.min((double) maxRetryDelay.toMillis(), initialRetryDelay.toMillis() * Math.pow(2, Math.min(attempt, 30)));
    return (long) (ceiling / 2 + ThreadLocalRandom.current().nextDouble() * (ceiling / 2));
  }

  /** Retry-After in seconds or as an HTTP date, when it is at most maxRetryAfter away; else null. */
  private Long retryAfterMillis(HttpResponse<?> response) {
    String value = response.headers().firstValue("retry-after").orElse(null);
    if (value == null || value.isBlank()) return null;
    value = value.trim();
    long millis;
    if (value.matches("\\d{1,9}")) {
      millis = Long.parseLong(value) * 1000;
    } else {
      try {
        millis = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli() - System.currentTimeMillis();
      } catch (DateTimeParseException e) {
        return null;
      }
      if (millis < 0) millis = 0;
    }
    return millis <= maxRetryAfter.toMillis() ? millis : null;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(Math.max(0, millis));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectionException("Interrupted while waiting to retry (CONNECTION_FAILED)", "CONNECTION_FAILED", null, null, null, e);
    }
  }

  /** The one check of a maxRetries, the client's and a call's ({@link RequestOptions}): 0 or more. */
  static int checkedMaxRetries(int maxRetries) {
    if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must be >= 0");
    return maxRetries;
  }

  static String segment(String id) {
    if (id == null || id.isEmpty()) throw new IllegalArgumentException("id must be a non-empty string");
    return URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /**
   * The base URL, checked before any request carries the key and secret: given explicitly (no
   * default host), http(s), and https unless it is loopback, so the credentials never cross the
   * network in clear text.
   */
  static String baseUrlOf(String baseUrl) {
    if (baseUrl == null || baseUrl.isBlank()) {
      throw new IllegalArgumentException("CambioClient.builder().baseUrl(…) is required (there is no default host): use " + WHERE_THE_URL_IS);
    }
    URI uri;
    try {
      uri = new URI(baseUrl.trim());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("baseUrl must be an http(s) URL, got \"" + baseUrl + "\": use " + WHERE_THE_URL_IS);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.isOpaque() || !(scheme.equals("http") || scheme.equals("https"))) {
      throw new IllegalArgumentException("baseUrl must be an http(s) URL, got \"" + baseUrl + "\": use " + WHERE_THE_URL_IS);
    }
    if (uri.getRawUserInfo() != null) {
      // Not echoed: it may hold a password.
      throw new IllegalArgumentException("baseUrl must carry no credentials (user:password@): the API key and secret go in apiKey and apiSecret");
    }
    if (uri.getRawQuery() != null || uri.getRawFragment() != null) {
      throw new IllegalArgumentException("baseUrl must carry no query or fragment, got \"" + baseUrl + "\"");
    }
    String host = uri.getHost();
    if (host == null || host.isEmpty()) {
      throw new IllegalArgumentException("baseUrl must name a host, got \"" + baseUrl + "\": use " + WHERE_THE_URL_IS);
    }
    host = host.toLowerCase(Locale.ROOT);
    if (scheme.equals("http") && !isLoopback(host)) {
      throw new IllegalArgumentException("baseUrl " + scheme + "://" + uri.getRawAuthority() + " is plain http, which would send your API key and secret in clear text: use https ("
          + WHERE_THE_URL_IS + "); http is accepted only for loopback (127.0.0.0/8, ::1, localhost)");
    }
    // The routes carry /v1 themselves: accept a base URL given with or without it (ApiUrl has it).
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    path = path.replaceAll("/+$", "");
    if (path.endsWith("/v1")) path = path.substring(0, path.length() - 3);
    path = path.replaceAll("/+$", "");
    return scheme + "://" + uri.getRawAuthority().toLowerCase(Locale.ROOT) + path;
  }

  static boolean isLoopback(String host) {
    if (host.equals("localhost") || host.equals("[::1]") || host.equals("[0:0:0:0:0:0:0:1]")) return true;
    var m = LOOPBACK_V4.matcher(host);
    if (!m.matches()) return false;
    for (int i = 1; i <= 3; i++) if (Integer.parseInt(m.group(i)) > 255) return false;
    return true;
  }

  /** {@code CambioClient.builder().apiKey(…).apiSecret(…).baseUrl(…).build()}. */
  public static final class Builder {
    private String apiKey;
    private String apiSecret;
    private String baseUrl;
    private int maxRetries = 2;
    private Duration timeout = Duration.ofSeconds(30);
    private Duration initialRetryDelay = Duration.ofMillis(500);
    private Duration maxRetryDelay = Duration.ofSeconds(5);
    private Duration maxRetryAfter = Duration.ofSeconds(60);
    private HttpClient httpClient;

    private Builder() {}

    /** Your API key. Required. */
    public Builder apiKey(String apiKey) {
      this.apiKey = apiKey;
      return this;
    }

    /** Your API secret. Required; never printed by {@code toString()} nor put in an exception. */
    public Builder apiSecret(String apiSecret) {
      this.apiSecret = apiSecret;
      return this;
    }

    /**
     * The API's URL, required: your stack's {@code ApiUrl} output
     * (https://{restApiId}.execute-api.{region}.amazonaws.com/{stage}/v1), or the local runtime's
     * ({@code npm start} prints it), with or without the trailing {@code /v1}. Plain http is
     * accepted for loopback only.
     */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** Retries after the first try (connection failures, timeouts, 409 IDEMPOTENCY_KEY_IN_USE, 429, 5xx). Default 2. */
    public Builder maxRetries(int maxRetries) {
      this.maxRetries = checkedMaxRetries(maxRetries);
      return this;
    }

    /** Per try. Default 30 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = positive(timeout, "timeout");
      return this;
    }

    /** Backoff before retry n: a random delay between half and all of min(maxRetryDelay, initialRetryDelay × 2^n). Default 0.5 s. */
    public Builder initialRetryDelay(Duration initialRetryDelay) {
      this.initialRetryDelay = nonNegative(initialRetryDelay, "initialRetryDelay");
      return this;
    }

    /** The backoff's cap. Default 5 s. */
    public Builder maxRetryDelay(Duration maxRetryDelay) {
      this.maxRetryDelay = nonNegative(maxRetryDelay, "maxRetryDelay");
      return this;
    }

    /** A {@code Retry-After} up to this is honoured; a longer one falls back to the backoff. Default 60 s. */
    public Builder maxRetryAfter(Duration maxRetryAfter) {
      this.maxRetryAfter = nonNegative(maxRetryAfter, "maxRetryAfter");
      return this;
    }

    /** Your own {@link HttpClient} (proxy, TLS settings); by default one of the client's own, HTTP/1.1. */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = httpClient;
      return this;
    }

    public CambioClient build() {
      return new CambioClient(this);
    }

    @Override
    public String toString() {
      return "CambioClient.Builder{baseUrl=" + baseUrl + ", apiSecret=[hidden]}";
    }

    private static Duration positive(Duration d, String name) {
      if (d == null || d.isNegative() || d.isZero()) throw new IllegalArgumentException(name + " must be a positive Duration");
      return d;
    }

    private static Duration nonNegative(Duration d, String name) {
      if (d == null || d.isNegative()) throw new IllegalArgumentException(name + " must be a non-negative Duration");
      return d;
    }
  }
}
