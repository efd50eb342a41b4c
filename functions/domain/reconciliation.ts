import { formatAmount } from './money.ts';

/**
 * Do the wallets hold what the ledger says Cambio owes? On-chain USDT on the hot wallet and the
 * unswept deposit addresses must equal the companies' balances (available + pending + locked)
 * plus Cambio's own USDT accounts (fees earned, USDT bought by the conversion desk), less what
 * has left on chain for withdrawals not yet settled in the ledger.
 */
export interface ReconciliationInputs {
  hotWalletUsdt: bigint;
  depositAddressesUsdt: bigint;
  companiesUsdt: bigint;
  treasuryUsdt: bigint;
  /** Withdrawals mined on chain but still `processing` in the ledger. */
  inFlightUsdt: bigint;
}

export interface Reconciliation extends ReconciliationInputs {
  onChain: bigint;
  owed: bigint;
  /** On chain minus owed: positive is a surplus, negative a shortfall. */
  difference: bigint;
  balanced: boolean;
}

export function reconcile(inputs: ReconciliationInputs): Reconciliation {
  const onChain = inputs.hotWalletUsdt + inputs.depositAddressesUsdt;
  const owed = inputs.companiesUsdt + inputs.treasuryUsdt - inputs.inFlightUsdt;
  return { ...inputs, onChain, owed, difference: onChain - owed, balanced: onChain === owed };
}

export function reconciliationReport(result: Reconciliation): string {
  const usdt = (value: bigint) => formatAmount(value, 'USDT').padStart(24);
  return [
    `hot wallet                  ${usdt(result.hotWalletUsdt)}`,
    `unswept deposit addresses   ${usdt(result.depositAddressesUsdt)}`,
    `= on chain                  ${usdt(result.onChain)}`,
    '',
    `company balances            ${usdt(result.companiesUsdt)}`,
    `+ Cambio's own (fees, desk) ${usdt(result.treasuryUsdt)}`,
    `- sent, not yet settled     ${usdt(result.inFlightUsdt)}`,
    `= owed                      ${usdt(result.owed)}`,
    '',
    result.balanced ? 'balanced' : `MISMATCH: ${formatAmount(result.difference, 'USDT')} USDT (${result.difference > 0n ? 'surplus' : 'shortfall'})`,
  ].join('\n');
}

export interface ReconciliationSources {
  ledger(): Promise<{ companiesUsdt: bigint; treasuryUsdt: bigint; depositAddresses: string[]; processing: { txHash: string; amount: bigint }[] }>;
  /** USDT held on chain by each of these addresses. */
  usdtBalances(addresses: string[]): Promise<Map<string, bigint>>;
  /** Whether a sent transaction is in a block with a SUCCESS receipt. */
  minedSuccessfully(txHash: string): Promise<boolean>;
  hotWalletAddress(): Promise<string>;
}

export async function reconcileHoldings(sources: ReconciliationSources): Promise<Reconciliation> {
  const ledger = await sources.ledger();
  const hotWallet = await sources.hotWalletAddress();
  const balances = await sources.usdtBalances([hotWallet, ...ledger.depositAddresses]);
  let inFlightUsdt = 0n;
  for (const withdrawal of ledger.processing) {
    if (await sources.minedSuccessfully(withdrawal.txHash)) inFlightUsdt += withdrawal.amount;
  }
  return reconcile({
    hotWalletUsdt: balances.get(hotWallet) ?? 0n,
    depositAddressesUsdt: ledger.depositAddresses.reduce((sum, address) => sum + (balances.get(address) ?? 0n), 0n),
    companiesUsdt: ledger.companiesUsdt,
    treasuryUsdt: ledger.treasuryUsdt,
    inFlightUsdt,
  });
}
