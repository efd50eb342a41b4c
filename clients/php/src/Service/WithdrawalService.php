<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Service\Operation\Create;
use Cambio\Service\Operation\Retrieve;
use Cambio\Types\CreateWithdrawalRequest;
use Cambio\Types\Withdrawal;

/**
 * `$cambio->withdrawals`:
 *
 * - `create($params, $opts)`: POST /v1/withdrawals; amount + fee move from available to locked, or
 *   RefusedException INSUFFICIENT_BALANCE and nothing is written. Params: method 'usdt', network
 *   'tron'|'ethereum'|'bsc'|'polygon'|'arbitrum'|'solana', address (on that network: EIP-55 '0x…'
 *   on the EVM ones, a wallet's base58 address on solana), amount, reference (see
 *   CreateWithdrawalRequest); opts: idempotency_key.
 * - `get($id, $opts)`: GET /v1/withdrawals/:id.
 */
final class WithdrawalService extends AbstractService
{
    /** @use Create<Withdrawal> */
    use Create;
    /** @use Retrieve<Withdrawal> */
    use Retrieve;

    protected const RESOURCE = ['path' => '/v1/withdrawals', 'record' => Withdrawal::class, 'params' => CreateWithdrawalRequest::class];
}
