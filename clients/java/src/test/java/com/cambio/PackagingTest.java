package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar as the README's "JDK alone" recipe builds it (javac --release 17, then jar), and an
 * application compiled and run with that jar alone on its class path: nothing else of this repository,
 * no other library. It verifies a signed delivery and reads its Deposit through the jar.
 */
class PackagingTest {
  private static final String BIN = Path.of(System.getProperty("java.home"), "bin").toString();

  @Test
  void theReadmeJarRunsAnApplicationWithNothingElseOnItsClassPath(@TempDir Path work) throws Exception {
    Path classes = work.resolve("jar");
    Path jar = work.resolve("cambio-java-" + CambioClient.VERSION + ".jar");
    List<String> compile = new ArrayList<>(List.of(BIN + "/javac", "--release", "17", "-d", classes.toString()));
    try (Stream<Path> sources = Files.walk(Path.of("src/main/java"))) {
      sources.filter(path -> path.toString().endsWith(".java")).forEach(path -> compile.add(path.toString()));
    }
    run(compile);
    run(List.of(BIN + "/jar", "--create", "--file", jar.toString(), "-C", classes.toString(), "."));
    try (JarFile contents = new JarFile(jar.toFile())) {
      List<String> foreign = contents.stream().map(entry -> entry.getName())
          .filter(name -> !name.equals("com/") && !name.startsWith("com/cambio/") && !name.startsWith("META-INF/")).toList();
      assertEquals(List.of(), foreign, "only the client's own classes");
      assertTrue(contents.getEntry("com/cambio/CambioClient.class") != null, "the client is in the jar");
    }

    Path app = Files.createDirectories(work.resolve("app"));
    Files.writeString(app.resolve("App.java"), String.join("\n",
        "import com.cambio.CambioClient;",
        "import com.cambio.WebhookEvent;",
        "import java.nio.file.Files;",
        "import java.nio.file.Path;",
        "import java.util.Map;",
        "public class App {",
        "  public static void main(String[] args) throws Exception {",
        "    CambioClient cambio = CambioClient.builder().apiKey(\"ck_test_k\").apiSecret(\"cs_test_s\").baseUrl(\"http://127.0.0.1:1/v1\").build();",
        "    Map<String, String> headers = Map.of(\"webhook-id\", args[1], \"webhook-timestamp\", args[2], \"webhook-signature\", args[3]);",
        "    WebhookEvent event = cambio.webhooks().verify(Files.readString(Path.of(args[0])), headers, args[4]);",
        "    System.out.print(CambioClient.VERSION + \"|\" + event.type() + \"|\" + event.deposit().creditedAmount() + \"|\"",
        "        + CambioClient.class.getProtectionDomain().getCodeSource().getLocation().getPath());",
        "  }",
        "}",
        ""));
    run(List.of(BIN + "/javac", "--release", "17", "-cp", jar.toString(), "-d", app.toString(), app.resolve("App.java").toString()));

    long timestamp = System.currentTimeMillis() / 1000;
    String body = WebhookVerifyTest.BODY;
    Path delivery = Files.writeString(work.resolve("delivery.json"), body);
    String output = run(List.of(BIN + "/java", "-cp", jar + ":" + app, "App", delivery.toString(), "evt_1", String.valueOf(timestamp),
        WebhookVerifyTest.sign(WebhookVerifyTest.SECRET, "evt_1", timestamp, body), WebhookVerifyTest.SECRET));

    String[] fields = output.split("\\|");
    assertEquals(List.of(CambioClient.VERSION, "deposit.completed", "25.000000"), List.of(fields[0], fields[1], fields[2]));
    // The class the application ran is the jar's, not this suite's build/classes.
    assertEquals(jar.toRealPath(), Path.of(fields[3]).toRealPath());
  }

  private static String run(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(120, TimeUnit.SECONDS), String.join(" ", command.subList(0, 2)) + " did not finish");
    assertEquals(0, process.exitValue(), command.get(0) + " failed:\n" + output);
    return output;
  }
}
