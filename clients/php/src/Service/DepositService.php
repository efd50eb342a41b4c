<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Service\Operation\Create;
use Cambio\Service\Operation\Retrieve;
use Cambio\Types\CreateDepositRequest;
use Cambio\Types\Deposit;

/**
 * `$cambio->deposits`:
 *
 * - `create($params, $opts)`: POST /v1/deposits, a fresh address on its network for this deposit only. Params:
 *   method 'usdt', network 'tron'|'ethereum'|'bsc'|'polygon'|'arbitrum'|'solana', reference, amount?, split? (see CreateDepositRequest); opts: idempotency_key.
 * - `get($id, $opts)`: GET /v1/deposits/:id.
 */
final class DepositService extends AbstractService
{
    /** @use Create<Deposit> */
    use Create;
    /** @use Retrieve<Deposit> */
    use Retrieve;

    protected const RESOURCE = ['path' => '/v1/deposits', 'record' => Deposit::class, 'params' => CreateDepositRequest::class];
}
