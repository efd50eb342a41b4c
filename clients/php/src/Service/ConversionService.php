<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Service\Operation\All;
use Cambio\Service\Operation\Create;
use Cambio\Service\Operation\Retrieve;
use Cambio\Types\Conversion;
use Cambio\Types\CreateConversionRequest;
use Cambio\Types\CreateQuoteRequest;
use Cambio\Types\Quote;

/**
 * `$cambio->conversions`: USDT → BRL.
 *
 * - `quote($params, $opts)`, below.
 * - `create($params, $opts)`: POST /v1/conversions, executes a quote. Params: quoteId, reference?
 *   (see CreateConversionRequest); opts: idempotency_key.
 * - `list($params, $opts)`: GET /v1/conversions, newest first: one page; ->autoPagingIterator() walks them all.
 * - `get($id, $opts)`: GET /v1/conversions/:id.
 */
final class ConversionService extends AbstractService
{
    /** @use Create<Conversion> */
    use Create;
    /** @use Retrieve<Conversion> */
    use Retrieve;
    /** @use All<Conversion> */
    use All;

    protected const RESOURCE = ['path' => '/v1/conversions', 'record' => Conversion::class, 'params' => CreateConversionRequest::class];

    /**
     * POST /v1/conversions/quote: a quote valid 30 s.
     *
     * @param array<string, mixed> $params sourceCurrency 'USDT', settlementCurrency 'BRL', sourceAmount (see CreateQuoteRequest)
     * @param array<string, mixed> $opts idempotency_key
     */
    public function quote(array $params, array $opts = []): Quote
    {
        return $this->record(Quote::class, 'POST', '/v1/conversions/quote', Params::prepare($params, CreateQuoteRequest::MONEY, 'conversions->quote()', CreateQuoteRequest::NUMBERS), $opts);
    }
}
