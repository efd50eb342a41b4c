package com.cambio;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted local API on 127.0.0.1 (a free port): each request is recorded and answered by the
 * script, given the request and its 1-based number. Answers can be delayed or the connection
 * dropped, to play a flaky network.
 */
public final class ScriptedServer implements AutoCloseable {
  public record Seen(String method, String uri, Map<String, List<String>> headers, String body, long atNanos) {
    String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) return e.getValue().get(0);
      }
      return null;
    }
  }

  public record Reply(int status, String body, Map<String, String> headers, long delayMillis, boolean drop) {
    Reply withHeader(String name, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(name, value);
      return new Reply(status, body, h, delayMillis, drop);
    }

    Reply delayed(long millis) {
      return new Reply(status, body, headers, millis, drop);
    }
  }

  public interface Script {
    Reply answer(Seen request, int attempt);
  }

  static Reply json(int status, String body) {
    return new Reply(status, body, Map.of("Content-Type", "application/json"), 0, false);
  }

  static Reply ok(String dataJson) {
    return json(200, "{\"success\":true,\"data\":" + dataJson + "}");
  }

  static Reply created(String dataJson) {
    return json(201, "{\"success\":true,\"data\":" + dataJson + "}");
  }

  static Reply failure(int status, String code) {
    return json(status, "{\"success\":false,\"error\":{\"code\":\"" + code + "\",\"message\":\"" + code + " happened\",\"details\":null}}");
  }

  static Reply raw(int status, String contentType, String body) {
    return new Reply(status, body, Map.of("Content-Type", contentType), 0, false);
  }

  /** A stand-in for the whole API: every route answers a fixture record (the README examples run against it). */
  public static Script fakeApi() {
    return (req, n) -> {
      String path = req.uri().replaceAll("\\?.*", "");
      String route = req.method() + " " + path.replaceAll("/(dep|wdr|cnv|whk)_[^/]+$", "/{id}");
      return switch (route) {
        case "GET /v1/company" -> ok(Fixtures.COMPANY);
        case "GET /v1/company/balance" -> ok(Fixtures.BALANCE);
        case "POST /v1/deposits" -> created(Fixtures.DEPOSIT);
        case "GET /v1/deposits/{id}" -> ok(Fixtures.DEPOSIT);
        case "POST /v1/withdrawals" -> failure(422, "INSUFFICIENT_BALANCE");
        case "GET /v1/withdrawals/{id}" -> ok(Fixtures.WITHDRAWAL);
        case "POST /v1/conversions/quote" -> created(Fixtures.QUOTE);
        case "POST /v1/conversions" -> created(Fixtures.conversion("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5"));
        case "GET /v1/conversions/{id}" -> ok(Fixtures.conversion("cnv_01JBZ6W1V7Q8R9S0T1U2V3W4X5"));
        case "GET /v1/conversions" -> req.uri().contains("cursor=")
            ? json(200, "{\"success\":true,\"data\":[" + Fixtures.conversion("cnv_2") + "],\"pagination\":{\"nextCursor\":null}}")
            : json(200, "{\"success\":true,\"data\":[" + Fixtures.conversion("cnv_1") + "],\"pagination\":{\"nextCursor\":\"c2\"}}");
        case "GET /v1/webhooks" -> json(200, "{\"success\":true,\"data\":[" + Fixtures.WEBHOOK + "],\"pagination\":{\"nextCursor\":null}}");
        case "POST /v1/webhooks" -> created(Fixtures.CREATED_WEBHOOK);
        case "GET /v1/webhooks/{id}", "PUT /v1/webhooks/{id}" -> ok(Fixtures.WEBHOOK);
        case "DELETE /v1/webhooks/{id}" -> ok("{\"id\":\"whk_01JBZ6W1V7Q8R9S0T1U2V3W4X5\",\"deleted\":true}");
        default -> failure(404, "NOT_FOUND");
      };
    };
  }

  static Reply drop() {
    return new Reply(0, "", Map.of(), 0, true);
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger count = new AtomicInteger();

  public ScriptedServer(Script script) throws IOException {
    this(0, script);
  }

  /** On a given port of 127.0.0.1 (0: a free one), e.g. one a client was refused on a moment before. */
  public ScriptedServer(int port, Script script) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 64);
    server.createContext("/", exchange -> handle(exchange, script));
    server.setExecutor(executor);
    server.start();
  }

  private void handle(HttpExchange exchange, Script script) throws IOException {
    try {
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      Seen request = new Seen(exchange.getRequestMethod(), exchange.getRequestURI().toString(), Map.copyOf(exchange.getRequestHeaders()), body, System.nanoTime());
      seen.add(request);
      int attempt = count.incrementAndGet();
      Reply reply = script.answer(request, attempt);
      if (reply.delayMillis > 0) Thread.sleep(reply.delayMillis);
      if (reply.drop) {
        // No status line: the client sees the connection close without an answer.
        exchange.close();
        return;
      }
      reply.headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      if (!reply.headers.containsKey("X-Request-Id")) exchange.getResponseHeaders().add("X-Request-Id", "req_" + attempt);
      byte[] bytes = reply.body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(reply.status, bytes.length == 0 ? -1 : bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away (a timeout test): nothing to answer
    } finally {
      exchange.close();
    }
  }

  /** http://127.0.0.1:port/v1, what `npm start` prints. */
  public String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  public List<Seen> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  public CambioClient.Builder client() {
    return CambioClient.builder()
        .apiKey("ck_test_key")
        .apiSecret("cs_test_very_secret_value")
        .baseUrl(url())
        .initialRetryDelay(java.time.Duration.ofMillis(5))
        .maxRetryDelay(java.time.Duration.ofMillis(20));
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
