<?php

declare(strict_types=1);

namespace Cambio;

use Cambio\Exception\InvalidResponseException;
use Cambio\Types\EventType;

/**
 * A verified delivery: `id` (evt_…, also the webhook-id header: deduplicate on it), `type`
 * (EventType::DEPOSIT_COMPLETED, …), `createdAt` and `data`, the record as the API sent it
 * (an array with the API's names: $event->data['id']). dataObject() gives the same record as its
 * typed class (Deposit, Withdrawal or Conversion, per EventType::RECORDS). For a verified body
 * that is not a Cambio event, `type` is null (isCambioEvent() false) and `id` the webhook-id header.
 */
final class WebhookEvent extends CambioObject
{
    /** @param array<string, mixed> $data */
    public function __construct(
        public readonly string $id,
        public readonly ?string $type,
        public readonly string $createdAt,
        public readonly array $data,
    ) {
    }

    /** @param array<string, mixed> $event */
    public static function fromArray(array $event): static
    {
        return self::keep(new self(
            is_string($event['id'] ?? null) ? $event['id'] : '',
            (string) $event['type'],
            is_string($event['createdAt'] ?? null) ? $event['createdAt'] : '',
            is_array($event['data'] ?? null) ? $event['data'] : [],
        ), $event);
    }

    /** A verified delivery whose body is not a Cambio event: its webhook-id header, no type, no data. */
    public static function unknown(string $id): self
    {
        return self::keep(new self($id, null, '', []), ['id' => $id, 'type' => null]);
    }

    /** False for a verified body that is not a Cambio event (its `type` is null). */
    public function isCambioEvent(): bool
    {
        return $this->type !== null;
    }

    /**
     * `data` as its typed record: a Types\Deposit for deposit.*, Types\Withdrawal for withdrawal.*,
     * Types\Conversion for conversion.completed; null for a type without a record (webhook.test).
     *
     * @throws InvalidResponseException when data lacks the record's fields
     */
    public function dataObject(): ?CambioObject
    {
        $class = EventType::RECORDS[$this->type ?? ''] ?? null;
        if ($class === null) {
            return null;
        }
        try {
            return $class::fromArray($this->data);
        } catch (\UnexpectedValueException $e) {
            throw new InvalidResponseException("The {$this->type} event's data is not a full record: " . $e->getMessage(), null, null, $e);
        }
    }
}
