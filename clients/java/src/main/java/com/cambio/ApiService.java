package com.cambio;

/** What every service of {@link CambioClient} holds: the client its requests go through. */
public abstract class ApiService {
  final CambioClient client;

  ApiService(CambioClient client) {
    this.client = client;
  }
}
