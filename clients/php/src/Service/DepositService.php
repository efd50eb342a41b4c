<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Types\CreateDepositRequest;
use Cambio\Types\Deposit;

/** `$cambio->deposits`. */
final class DepositService extends AbstractService
{
    /**
     * POST /v1/deposits: a fresh TRON address for this deposit only.
     *
     * @param array<string, mixed> $params method 'usdt', network 'tron', reference, amount?, split? (see CreateDepositRequest)
     * @param array<string, mixed> $opts idempotency_key
     */
    public function create(array $params, array $opts = []): Deposit
    {
        return $this->record(Deposit::class, 'POST', '/v1/deposits', Params::prepare($params, CreateDepositRequest::MONEY, 'deposits->create()'), $opts);
    }

    /** GET /v1/deposits/:id. @param array<string, mixed> $opts */
    public function get(string $id, array $opts = []): Deposit
    {
        return $this->record(Deposit::class, 'GET', '/v1/deposits/' . self::segment($id), null, $opts);
    }
}
