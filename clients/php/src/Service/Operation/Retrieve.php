<?php

declare(strict_types=1);

namespace Cambio\Service\Operation;

use Cambio\CambioObject;

/**
 * `get($id, $opts)` for a resource group (a Cambio\Service\AbstractService): one record by its id.
 *
 * @template TRecord of CambioObject
 */
trait Retrieve
{
    /**
     * GET /v1/<group>/:id.
     *
     * @param array<string, mixed> $opts max_retries, timeout
     * @return TRecord
     * @throws \Cambio\Exception\NotFoundException for an unknown id (or another company's)
     */
    public function get(string $id, array $opts = []): CambioObject
    {
        return $this->record(static::RESOURCE['record'], 'GET', static::RESOURCE['path'] . '/' . self::segment($id), null, $opts);
    }
}
