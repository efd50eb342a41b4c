<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Service\Operation\All;
use Cambio\Service\Operation\Create;
use Cambio\Service\Operation\Retrieve;
use Cambio\Types\CreatedWebhook;
use Cambio\Types\DeletedWebhook;
use Cambio\Types\Webhook;
use Cambio\Types\WebhookRequest;
use Cambio\WebhookEvent;
use Cambio\WebhookSignature;

/**
 * `$cambio->webhooks`: endpoints that receive events, and verify() for their deliveries.
 *
 * - `list($params, $opts)`: GET /v1/webhooks, a Page of Webhook.
 * - `create($params, $opts)`: POST /v1/webhooks. The CreatedWebhook answered carries the signing
 *   `secret` (whsec_…), shown only this once: store it. Params: url, events (['*'] for all),
 *   description?, enabled? (see WebhookRequest); opts: idempotency_key.
 * - `get($id, $opts)`: GET /v1/webhooks/:id.
 * - `update()`, `delete()`, `verify()`, below.
 */
final class WebhookService extends AbstractService
{
    /** @use All<Webhook> */
    use All;
    /** @use Create<CreatedWebhook> */
    use Create;
    /** @use Retrieve<Webhook> */
    use Retrieve;

    protected const RESOURCE = [
        'path' => '/v1/webhooks',
        'record' => Webhook::class,
        'params' => WebhookRequest::class,
        'created' => CreatedWebhook::class,
    ];

    /**
     * PUT /v1/webhooks/:id: replaces the webhook (omitted optional fields take their defaults); the secret is kept.
     *
     * @param array<string, mixed> $params url, events, description?, enabled?
     * @param array<string, mixed> $opts
     */
    public function update(string $id, array $params, array $opts = []): Webhook
    {
        return $this->record(Webhook::class, 'PUT', '/v1/webhooks/' . self::segment($id), Params::prepare($params, WebhookRequest::MONEY, 'webhooks->update()'), $opts);
    }

    /** DELETE /v1/webhooks/:id → `id`, `deleted` (true). @param array<string, mixed> $opts */
    public function delete(string $id, array $opts = []): DeletedWebhook
    {
        return $this->record(DeletedWebhook::class, 'DELETE', '/v1/webhooks/' . self::segment($id), null, $opts);
    }

    /**
     * Verifies a delivery (Standard Webhooks) over its RAW body and returns the event; throws
     * WebhookVerificationException when it is forged, altered, stale or not a Cambio delivery.
     * Local: no request is made. See WebhookSignature::verify().
     *
     * @param string|\Stringable $rawBody the body exactly as received: file_get_contents('php://input'), $request->getContent()
     * @param array<string, string|list<string>>|object $headers getallheaders(), $request->headers->all(), $_SERVER, a Symfony HeaderBag or a PSR-7 request
     * @param string $secret the webhook's whsec_… secret
     * @param int $tolerance seconds the webhook-timestamp may be from now (default 300)
     * @param int|\DateTimeInterface|null $now the current time (for tests); default the clock
     */
    public function verify(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = WebhookSignature::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): WebhookEvent
    {
        return WebhookSignature::verify($rawBody, $headers, $secret, $tolerance, $now);
    }
}
