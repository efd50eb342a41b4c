package com.cambio.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.cambio.CambioClient;
import com.cambio.ScriptedServer;
import com.cambio.WebhookEvent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseEntity;

/** README.md's Java blocks are all in the compiled examples, and they run against a stand-in API. */
class ReadmeExamplesTest {
  static final String SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

  static List<String> normalised(String text) {
    List<String> lines = new ArrayList<>();
    for (String line : text.split("\n")) {
      String t = line.strip();
      if (!t.isEmpty() && !t.startsWith("import ") && !t.startsWith("package ")) lines.add(t);
    }
    return lines;
  }

  @Test
  void everyJavaBlockOfTheReadmeIsCompiledHere() throws Exception {
    String readme = Files.readString(Path.of("README.md"));
    StringBuilder sources = new StringBuilder();
    for (String file : List.of("ReadmeExamples.java", "CambioConfig.java", "CambioWebhookController.java")) {
      sources.append(Files.readString(Path.of("src/test/java/com/cambio/examples", file))).append('\n');
    }
    List<String> compiled = normalised(sources.toString());
    Matcher blocks = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(readme);
    int count = 0;
    while (blocks.find()) {
      count++;
      List<String> block = normalised(blocks.group(1));
      assertTrue(java.util.Collections.indexOfSubList(compiled, block) >= 0,
          "README block " + count + " is not in src/test/java/com/cambio/examples verbatim:\n" + blocks.group(1));
    }
    assertTrue(count >= 8, "found " + count + " java blocks");
  }

  static String sign(String id, long timestamp, byte[] body) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(Base64.getDecoder().decode(SECRET.substring(6)), "HmacSHA256"));
    mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
    return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
  }

  @Test
  void theExamplesRunAgainstAStandInApi() throws Exception {
    try (ScriptedServer server = new ScriptedServer(ScriptedServer.fakeApi())) {
      CambioClient cambio = ReadmeExamples.construct("ck_test_key", "cs_test_secret", server.url());
      assertEquals(server.url().replace("/v1", ""), cambio.baseUrl());
      ReadmeExamples.company(cambio);
      ReadmeExamples.deposits(cambio);
      ReadmeExamples.conversions(cambio);
      ReadmeExamples.withdrawals(cambio);
      ReadmeExamples.pagination(cambio);
      ReadmeExamples.webhooks(cambio);
      ReadmeExamples.errors(cambio, "qte_01JBZ6W1V7Q8R9S0T1U2V3W4X5");

      String body = "{\"id\":\"evt_1\",\"type\":\"deposit.completed\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":{\"id\":\"dep_1\",\"reference\":\"order-1\"}}";
      long now = Instant.now().getEpochSecond();
      Map<String, String> headers = Map.of("webhook-id", "evt_1", "webhook-timestamp", String.valueOf(now), "webhook-signature", sign("evt_1", now, body.getBytes(StandardCharsets.UTF_8)));
      ReadmeExamples.quickstart("ck_test_key", "cs_test_secret", server.url(), body, headers, SECRET);
      assertTrue(server.seen().size() > 20);
    }
  }

  @Test
  void theSpringControllerVerifiesTheRawBody() throws Exception {
    CambioClient cambio = new CambioConfig().cambio("ck_test_key", "cs_test_secret", "http://127.0.0.1:9/v1");
    CambioWebhookController controller = new CambioWebhookController(cambio, SECRET);
    byte[] body = ("{\"id\":\"evt_2\",\"type\":\"withdrawal.failed\",\"createdAt\":\"2026-01-01T00:00:00.000Z\",\"data\":{\"id\":\"wdr_1\",\"failureReason\":\"reverted\"}}")
        .getBytes(StandardCharsets.UTF_8);
    long now = Instant.now().getEpochSecond();
    Map<String, String> headers = Map.of("Webhook-Id", "evt_2", "Webhook-Timestamp", String.valueOf(now), "Webhook-Signature", sign("evt_2", now, body));

    ResponseEntity<Void> accepted = controller.receive(body, headers);
    assertEquals(204, accepted.getStatusCodeValue());

    byte[] altered = new String(body, StandardCharsets.UTF_8).replace("reverted", "reverteD").getBytes(StandardCharsets.UTF_8);
    assertEquals(400, controller.receive(altered, headers).getStatusCodeValue());

    // Spring's HttpHeaders (a Map<String, List<String>>) works as it is.
    HttpHeaders springHeaders = new HttpHeaders();
    headers.forEach((k, v) -> springHeaders.put(k, List.of(v)));
    WebhookEvent event = cambio.webhooks().verify(new String(body, StandardCharsets.UTF_8), springHeaders, SECRET);
    assertEquals("reverted", event.withdrawal().failureReason());
    assertFalse(event.data().isEmpty());
  }
}
