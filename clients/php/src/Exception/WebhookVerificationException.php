<?php

declare(strict_types=1);

namespace Cambio\Exception;

/** Code WEBHOOK_VERIFICATION_FAILED: webhooks->verify() refused a delivery; do not trust its body. Answer it with 400. */
class WebhookVerificationException extends CambioException
{
    public function __construct(string $message)
    {
        parent::__construct($message, 'WEBHOOK_VERIFICATION_FAILED');
    }
}
