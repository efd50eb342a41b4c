<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Internal\Requestor;
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
        return $this->record(Webhook::class, 'PUT', '/v1/webhooks/' . self::segment($id), Params::prepare($params, WebhookRequest::MONEY, 'webhooks->update()', WebhookRequest::NUMBERS), $opts);
    }

    /**
     * DELETE /v1/webhooks/:id → `id`, `deleted` (true). When a retry (after a timeout, a lost
     * connection or a 5xx) is answered 404, the try before it deleted the webhook and its answer
     * was lost: that is this same success, not a NotFoundException. A 404 to the first try is
     * NotFoundException.
     *
     * @param array<string, mixed> $opts
     */
    public function delete(string $id, array $opts = []): DeletedWebhook
    {
        $answer = $this->requestor->request('DELETE', '/v1/webhooks/' . self::segment($id), null, null, $opts, ['id' => $id, 'deleted' => true]);
        return Requestor::hydrate($answer, DeletedWebhook::fromArray(...));
    }

    /**
     * Verifies a delivery (Standard Webhooks) over its RAW body, then returns the event; throws
     * WebhookVerificationException, saying what failed, when it is not signed with $secret or not
     * fresh. A verified body that is not a Cambio event is returned with `type` null, not refused.
     * Local: no request is made. See WebhookSignature::verify().
     *
     * @param string|\Stringable $rawBody the body exactly as received: file_get_contents('php://input'), $request->getContent()
     * @param array<string, string|list<string>>|object $headers getallheaders(), $request->headers->all(), $_SERVER, a Symfony HeaderBag or a PSR-7 request
     * @param string $secret the webhook's whsec_… secret (or its raw base64 key)
     * @param int $tolerance seconds the webhook-timestamp may be from now, either way (default 300)
     * @param int|\DateTimeInterface|null $now the current time (for tests); default the clock
     */
    public function verify(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = WebhookSignature::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): WebhookEvent
    {
        return WebhookSignature::verify($rawBody, $headers, $secret, $tolerance, $now);
    }

    /** The first step of verify() alone: throws unless signed and fresh; the body is not read. See WebhookSignature::verifySignature(). */
    public function verifySignature(mixed $rawBody, mixed $headers, #[\SensitiveParameter] string $secret, int $tolerance = WebhookSignature::DEFAULT_TOLERANCE, int|\DateTimeInterface|null $now = null): void
    {
        WebhookSignature::verifySignature($rawBody, $headers, $secret, $tolerance, $now);
    }
}
