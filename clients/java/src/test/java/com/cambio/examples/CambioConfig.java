package com.cambio.examples;

import com.cambio.CambioClient;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration
public class CambioConfig {
  @Bean // one client for the whole application: it is thread-safe
  public CambioClient cambio(@Value("${cambio.api-key}") String apiKey, @Value("${cambio.api-secret}") String apiSecret,
      @Value("${cambio.api-url}") String apiUrl) {
    return CambioClient.builder().apiKey(apiKey).apiSecret(apiSecret).baseUrl(apiUrl).build();
  }
}
