<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Internal\Params;
use Cambio\Types\CreateWithdrawalRequest;
use Cambio\Types\Withdrawal;

/** `$cambio->withdrawals`. */
final class WithdrawalService extends AbstractService
{
    /**
     * POST /v1/withdrawals: amount + fee move from available to locked, or RefusedException
     * INSUFFICIENT_BALANCE and nothing is written.
     *
     * @param array<string, mixed> $params method 'usdt', network 'tron', address, amount, reference (see CreateWithdrawalRequest)
     * @param array<string, mixed> $opts idempotency_key
     */
    public function create(array $params, array $opts = []): Withdrawal
    {
        return $this->record(Withdrawal::class, 'POST', '/v1/withdrawals', Params::prepare($params, CreateWithdrawalRequest::MONEY, 'withdrawals->create()'), $opts);
    }

    /** GET /v1/withdrawals/:id. @param array<string, mixed> $opts */
    public function get(string $id, array $opts = []): Withdrawal
    {
        return $this->record(Withdrawal::class, 'GET', '/v1/withdrawals/' . self::segment($id), null, $opts);
    }
}
