package com.cambio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The version is written once, in CambioClient.VERSION; pom.xml must say the same. */
class VersionTest {
  @Test
  void pomVersionMatchesTheClientsVersion() throws Exception {
    String pom = Files.readString(Path.of("pom.xml"));
    Matcher m = Pattern.compile("<artifactId>cambio-java</artifactId>\\s*<version>([^<]+)</version>").matcher(pom);
    assertTrue(m.find(), "pom.xml names com.cambio:cambio-java and its version");
    assertEquals(CambioClient.VERSION, m.group(1));
    assertTrue(pom.contains("<groupId>com.cambio</groupId>"));
  }

  @Test
  void userAgentNamesTheClientAndTheRuntime() {
    String ua = ClientTest.valid().build().userAgent();
    assertEquals("cambio-java/" + CambioClient.VERSION + " java/" + System.getProperty("java.version"), ua);
  }
}
