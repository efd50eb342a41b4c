package com.cambio.examples;

import com.cambio.CambioClient;
import com.cambio.WebhookEvent;
import com.cambio.exception.WebhookVerificationException;
import com.cambio.model.Deposit;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class CambioWebhookController {
  private final CambioClient cambio;
  private final String webhookSecret;

  public CambioWebhookController(CambioClient cambio, @Value("${cambio.webhook-secret}") String webhookSecret) {
    this.cambio = cambio;
    this.webhookSecret = webhookSecret;
  }

  // byte[] (or String): the raw body exactly as Cambio sent it, never an object mapped back to JSON.
  @PostMapping(path = "/webhooks/cambio", consumes = "application/json")
  public ResponseEntity<Void> receive(@RequestBody byte[] raw, @RequestHeader Map<String, String> headers) {
    WebhookEvent event;
    try {
      event = cambio.webhooks().verify(raw, headers, webhookSecret);
    } catch (WebhookVerificationException e) {
      return ResponseEntity.badRequest().build(); // forged, altered, stale or re-serialised: e.getMessage() says which
    }
    switch (event.type()) {
      case "deposit.completed" -> credit(event.id(), event.deposit());
      case "deposit.transfer_reversed" -> System.out.println("not credited, awaiting payment again: " + event.deposit().reference());
      case "deposit.held" -> System.out.println("on hold (" + event.deposit().holdReason() + "): " + event.deposit().reference());
      case "withdrawal.failed" -> System.out.println("payout failed: " + event.withdrawal().failureReason());
      default -> { }
    }
    return ResponseEntity.noContent().build();
  }

  private void credit(String eventId, Deposit deposit) {
    // Once per eventId (a retried delivery carries the same id): credit deposit.reference() with deposit.creditedAmount().
  }
}
