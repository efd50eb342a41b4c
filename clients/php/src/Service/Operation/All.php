<?php

declare(strict_types=1);

namespace Cambio\Service\Operation;

use Cambio\Page;

/**
 * `list($params, $opts)` for a resource group (a Cambio\Service\AbstractService): one page of its
 * records, newest first; ->autoPagingIterator() walks them all.
 *
 * @template TRecord of \Cambio\CambioObject
 */
trait All
{
    /**
     * GET /v1/<group>.
     *
     * @param array{limit?: int, cursor?: string} $params
     * @param array<string, mixed> $opts max_retries, timeout
     * @return Page<TRecord>
     */
    public function list(array $params = [], array $opts = []): Page
    {
        return $this->page(static::RESOURCE['record'], static::RESOURCE['path'], $params, $opts);
    }
}
