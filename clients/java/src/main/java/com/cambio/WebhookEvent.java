package com.cambio;

import com.cambio.internal.Decoder;
import com.cambio.internal.JsonException;
import com.cambio.model.Conversion;
import com.cambio.model.Deposit;
import com.cambio.model.Withdrawal;
import java.util.Map;

/**
 * A verified delivery: {@code {id: "evt_…", type, createdAt, data: <the record>}}. The {@code id}
 * is also the {@code webhook-id} header and is the same on every retry of the delivery:
 * deduplicate on it. Order is not guaranteed: compare {@code data.updatedAt}.
 *
 * @param id the event id, {@code evt_…}
 * @param type {@code deposit.confirming}, {@code deposit.completed}, {@code deposit.expired},
 *     {@code deposit.held} (the funds arrived but are not credited: the deposit's {@code status} is
 *     {@code held} and its {@code holdReason} says why, {@code address_frozen} or {@code
 *     sender_sanctioned}), {@code deposit.transfer_reversed} (a transfer an earlier {@code deposit.confirming} showed was
 *     removed by a chain reorganisation or failed: it will not be credited),
 *     {@code withdrawal.processing}, {@code withdrawal.completed}, {@code withdrawal.failed},
 *     {@code conversion.completed} (or {@code webhook.test})
 * @param createdAt ISO 8601 UTC
 * @param data the record as parsed JSON (unmodifiable; amounts are strings, numbers BigDecimal);
 *     {@link #deposit()}, {@link #withdrawal()}, {@link #conversion()} give it typed
 */
public record WebhookEvent(String id, String type, String createdAt, Map<String, Object> data) {
  /**
   * False for a verified body that is not a Cambio event (not JSON, or without {@code id}, {@code
   * type} and {@code data}): its {@code type}, {@code createdAt} and {@code data} are null, its
   * {@code id} the {@code webhook-id} header.
   */
  public boolean isCambioEvent() {
    return type != null;
  }

  /** {@code data} as a {@link Deposit}, for the {@code deposit.*} types. */
  public Deposit deposit() {
    return typed("deposit.", Deposit.class);
  }

  /** {@code data} as a {@link Withdrawal}, for the {@code withdrawal.*} types. */
  public Withdrawal withdrawal() {
    return typed("withdrawal.", Withdrawal.class);
  }

  /** {@code data} as a {@link Conversion}, for {@code conversion.completed}. */
  public Conversion conversion() {
    return typed("conversion.", Conversion.class);
  }

  /** {@code data} as any of the model's records. */
  public <T> T dataAs(Class<T> type) {
    try {
      return Decoder.decode(data, type);
    } catch (JsonException e) {
      throw new IllegalStateException("event " + id + " (" + type + ") data is not a " + type.getSimpleName() + ": " + e.getMessage(), e);
    }
  }

  private <T> T typed(String prefix, Class<T> cls) {
    if (type == null || !type.startsWith(prefix)) {
      throw new IllegalStateException("event " + id + " is a " + type + ", not a " + prefix + "* event");
    }
    return dataAs(cls);
  }
}
