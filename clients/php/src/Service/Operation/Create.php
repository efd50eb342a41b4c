<?php

declare(strict_types=1);

namespace Cambio\Service\Operation;

use Cambio\CambioObject;
use Cambio\Internal\Params;

/**
 * `create($params, $opts)` for a resource group (a Cambio\Service\AbstractService): POST to its
 * collection, the money fields of its params class checked first.
 *
 * @template TRecord of CambioObject
 */
trait Create
{
    /**
     * POST /v1/<group>: creates a record (see the group's RESOURCE `params` class for the keys).
     *
     * @param array<string, mixed> $params keyed by the API's field names
     * @param array<string, mixed> $opts idempotency_key, max_retries, timeout
     * @return TRecord
     */
    public function create(array $params, array $opts = []): CambioObject
    {
        ['path' => $path, 'params' => $fields] = static::RESOURCE;
        $body = Params::prepare($params, $fields::MONEY, basename($path) . '->create()', $fields::NUMBERS);
        return $this->record(static::RESOURCE['created'] ?? static::RESOURCE['record'], 'POST', $path, $body, $opts);
    }
}
