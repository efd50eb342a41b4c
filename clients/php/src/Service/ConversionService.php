<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Page;
use Cambio\Types\Conversion;
use Cambio\Types\CreateConversionRequest;
use Cambio\Types\CreateQuoteRequest;
use Cambio\Types\Quote;

/** `$cambio->conversions`: USDT → BRL. */
final class ConversionService extends AbstractService
{
    /**
     * POST /v1/conversions/quote: a quote valid 30 s.
     *
     * @param array<string, mixed> $params sourceCurrency 'USDT', settlementCurrency 'BRL', sourceAmount (see CreateQuoteRequest)
     * @param array<string, mixed> $opts idempotency_key
     */
    public function quote(array $params, array $opts = []): Quote
    {
        return $this->record(Quote::class, 'POST', '/v1/conversions/quote', Params::prepare($params, CreateQuoteRequest::MONEY, 'conversions->quote()'), $opts);
    }

    /**
     * POST /v1/conversions: executes a quote.
     *
     * @param array<string, mixed> $params quoteId, reference? (see CreateConversionRequest)
     * @param array<string, mixed> $opts idempotency_key
     */
    public function create(array $params, array $opts = []): Conversion
    {
        return $this->record(Conversion::class, 'POST', '/v1/conversions', Params::prepare($params, CreateConversionRequest::MONEY, 'conversions->create()'), $opts);
    }

    /**
     * GET /v1/conversions, newest first: one page; ->autoPagingIterator() walks them all.
     *
     * @param array{limit?: int, cursor?: string} $params
     * @param array<string, mixed> $opts
     * @return Page<Conversion>
     */
    public function list(array $params = [], array $opts = []): Page
    {
        return $this->page(Conversion::class, '/v1/conversions', $params, $opts);
    }

    /** GET /v1/conversions/:id. @param array<string, mixed> $opts */
    public function get(string $id, array $opts = []): Conversion
    {
        return $this->record(Conversion::class, 'GET', '/v1/conversions/' . self::segment($id), null, $opts);
    }
}
