import type { WithdrawalRules } from '#domain/withdrawals';
import { parseAmount } from '#domain/money';
import { requireEnv } from './env.ts';

/**
 * Business settings that differ per stage (lib/stages.ts `functionEnvironment`), read once at cold
 * start. A malformed value fails the cold start rather than a customer's request.
 */
export function withdrawalRulesFromEnv(): WithdrawalRules {
  return {
    fee: parseMinorUnitsOrZero(requireEnv('WITHDRAWAL_FEE_USDT'), 'WITHDRAWAL_FEE_USDT'),
    minimum: parseAmount(requireEnv('WITHDRAWAL_MINIMUM_USDT'), 'USDT'),
  };
}

export function depositSettingsFromEnv(): { accountXpub: string; requiredConfirmations: number } {
  const requiredConfirmations = Number(requireEnv('DEPOSIT_REQUIRED_CONFIRMATIONS'));
  if (!Number.isInteger(requiredConfirmations) || requiredConfirmations < 1) {
    throw new Error('DEPOSIT_REQUIRED_CONFIRMATIONS must be a positive integer');
  }
  return { accountXpub: requireEnv('DEPOSIT_ACCOUNT_XPUB'), requiredConfirmations };
}

function parseMinorUnitsOrZero(value: string, name: string): bigint {
  if (/^0(\.0+)?$/.test(value)) return 0n;
  try {
    return parseAmount(value, 'USDT');
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`);
  }
}
