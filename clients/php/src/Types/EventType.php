<?php

// Generated from openapi.json by tools/generate-types.php. Do not edit: run `php tools/generate-types.php`.

declare(strict_types=1);

namespace Cambio\Types;

/** The webhook event types (`webhooks` in openapi.json) and the record each one's `data` holds. */
final class EventType
{
    public const DEPOSIT_CONFIRMING = 'deposit.confirming';
    public const DEPOSIT_COMPLETED = 'deposit.completed';
    public const DEPOSIT_EXPIRED = 'deposit.expired';
    public const DEPOSIT_HELD = 'deposit.held';
    public const DEPOSIT_TRANSFER_REVERSED = 'deposit.transfer_reversed';
    public const WITHDRAWAL_PROCESSING = 'withdrawal.processing';
    public const WITHDRAWAL_COMPLETED = 'withdrawal.completed';
    public const WITHDRAWAL_FAILED = 'withdrawal.failed';
    public const CONVERSION_COMPLETED = 'conversion.completed';
    public const WEBHOOK_TEST = 'webhook.test';

    /** Event type => class of its `data` record. */
    public const RECORDS = [
        'deposit.confirming' => Deposit::class,
        'deposit.completed' => Deposit::class,
        'deposit.expired' => Deposit::class,
        'deposit.held' => Deposit::class,
        'deposit.transfer_reversed' => Deposit::class,
        'withdrawal.processing' => Withdrawal::class,
        'withdrawal.completed' => Withdrawal::class,
        'withdrawal.failed' => Withdrawal::class,
        'conversion.completed' => Conversion::class,
    ];

    private function __construct()
    {
    }
}
