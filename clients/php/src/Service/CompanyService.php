<?php

declare(strict_types=1);

namespace Cambio\Service;

use Cambio\Types\Balance;
use Cambio\Types\Company;

/** `$cambio->company`: the company the API key belongs to. */
final class CompanyService extends AbstractService
{
    /** GET /v1/company. @param array<string, mixed> $opts */
    public function get(array $opts = []): Company
    {
        return $this->record(Company::class, 'GET', '/v1/company', null, $opts);
    }

    /** GET /v1/company/balance: `balances` (USDT and BRL: available, pending, locked) and `updatedAt`. @param array<string, mixed> $opts */
    public function balance(array $opts = []): Balance
    {
        return $this->record(Balance::class, 'GET', '/v1/company/balance', null, $opts);
    }
}
