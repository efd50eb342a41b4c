package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift check: regenerating the records from ../../openapi.json with tools/GenerateTypes.java
 * must give exactly the committed src/main/java/com/cambio/model. When it fails, openapi.json
 * changed: run `java tools/GenerateTypes.java` in clients/java and commit the result.
 */
class GeneratedTypesTest {
  @Test
  void committedModelMatchesOpenapiJson(@TempDir Path out) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process = new ProcessBuilder(java, "tools/GenerateTypes.java", "--openapi", "../../openapi.json", "--out", out.toString())
        .redirectErrorStream(true)
        .start();
    String output = new String(process.getInputStream().readAllBytes());
    assertTrue(process.waitFor(60, TimeUnit.SECONDS), "generator did not finish");
    assertEquals(0, process.exitValue(), output);

    Map<String, String> generated = read(out);
    Map<String, String> committed = read(Path.of("src/main/java/com/cambio/model"));
    assertEquals(generated.keySet(), committed.keySet(),
        "the records differ from openapi.json's schemas: run `java tools/GenerateTypes.java` in clients/java and commit");
    for (String file : generated.keySet()) {
      assertEquals(generated.get(file), committed.get(file),
          file + " is stale: openapi.json changed; run `java tools/GenerateTypes.java` in clients/java and commit");
    }
  }

  private static Map<String, String> read(Path dir) throws Exception {
    Map<String, String> files = new TreeMap<>();
    try (Stream<Path> list = Files.list(dir)) {
      for (Path file : list.filter(f -> f.toString().endsWith(".java")).toList()) files.put(file.getFileName().toString(), Files.readString(file));
    }
    return files;
  }

  @Test
  void theGeneratorRunsFromTheClientFolder() {
    assertTrue(new File("tools/GenerateTypes.java").isFile(), "tests run in clients/java");
  }
}
