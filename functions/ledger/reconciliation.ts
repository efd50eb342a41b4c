import { formatAmount } from '../shared/money.ts';

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
  /** To the unit. */
  balanced: boolean;
  /**
   * A difference beyond RECONCILE_DUST, and which way: both are alarmed. A shortfall is customers'
   * money missing; a surplus is money the ledger cannot account for — a payout that never left
   * (two withdrawals collapsed into one transaction show only as a surplus), a deposit
   * not yet scanned, or a float sent by hand — and each needs someone to look.
   */
  mismatch: 'surplus' | 'shortfall' | null;
}

/** 0.01 USDT: below it, a difference is rounding dust, not money to chase. */
export const RECONCILE_DUST = 10_000n;

export function reconcile(inputs: ReconciliationInputs): Reconciliation {
  const onChain = inputs.hotWalletUsdt + inputs.depositAddressesUsdt;
  const owed = inputs.companiesUsdt + inputs.treasuryUsdt - inputs.inFlightUsdt;
  const difference = onChain - owed;
  const mismatch = difference > RECONCILE_DUST ? 'surplus' : difference < -RECONCILE_DUST ? 'shortfall' : null;
  return { ...inputs, onChain, owed, difference, balanced: difference === 0n, mismatch };
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
    result.balanced
      ? 'balanced'
      : result.mismatch === null
        ? `balanced within dust (${formatAmount(result.difference, 'USDT')} USDT)`
        : result.mismatch === 'surplus'
          ? `MISMATCH: ${formatAmount(result.difference, 'USDT')} USDT (surplus): the wallets hold more than the ledger owes (a payout that did not leave, a deposit not yet scanned, or a float sent by hand)`
          : `MISMATCH: ${formatAmount(result.difference, 'USDT')} USDT (shortfall): the wallets hold less than the ledger owes`,
  ].join('\n');
}

export interface LedgerSide {
  /** Every company's USDT: available + pending + locked. */
  companiesUsdt: bigint;
  /** Cambio's own USDT accounts (fees earned, the conversion desk). */
  treasuryUsdt: bigint;
  /** Withdrawals still `processing` in the ledger, with their transactions. */
  processing: { txHash: string; amount: bigint }[];
  /** The deposit addresses whose USDT is counted as held: see reconcileHoldings. */
  depositAddresses: string[];
}

export interface ReconciliationSources {
  ledger(): Promise<LedgerSide>;
  /** USDT held on chain by each of these addresses. */
  usdtBalances(addresses: string[]): Promise<Map<string, bigint>>;
  /** Whether a sent transaction is in a block with a SUCCESS receipt. */
  minedSuccessfully(txHash: string): Promise<boolean>;
  hotWalletAddress(): Promise<string>;
}

/**
 * Which deposit addresses must be read. A sweep moves USDT from a deposit address to the hot
 * wallet and changes no balance (functions/deposits/sweeps.ts), so what Cambio holds on chain is
 * the hot wallet plus whatever USDT is still on deposit addresses. The ledger knows which
 * addresses may still hold some: those with a transfer seen and still confirming, those with a
 * confirmed transfer the sweeper has not yet moved (its sweep-due list), and those the sweeper
 * left holding less than its minimum. An address outside that list holds nothing the ledger
 * counts, so reading only the listed ones can under-count the holdings, never over-count them:
 * a gap can make a false shortfall, but cannot hide a real one. A surplus on an unlisted address
 * is money not owed to anyone yet (a transfer the scanner has not seen); only the sandbox, which
 * reads every deposit address in one go, reports it.
 *
 * The reads run in an order that turns the races with the running jobs into surpluses, not
 * shortfalls: the list is taken after the balances (funds credited by then are listed, or were
 * swept), the hot wallet is read after the deposit addresses (a sweep landing between the two
 * reads is counted twice rather than missed), and receipts after the hot wallet (a withdrawal
 * mined between those is subtracted from owed while still counted as held). One race is left: a
 * withdrawal still pending when the ledger was read and mined before the hot wallet is read shows
 * as a shortfall for that run (the alarm waits for two runs in a row).
 */
export async function reconcileHoldings(sources: ReconciliationSources): Promise<Reconciliation & { depositAddressesRead: number }> {
  const ledger = await sources.ledger();
  const hotWallet = await sources.hotWalletAddress();
  const depositAddresses = [...new Set(ledger.depositAddresses)].filter((address) => address !== hotWallet);
  const onDepositAddresses = await sources.usdtBalances(depositAddresses);
  const onHotWallet = await sources.usdtBalances([hotWallet]);
  let inFlightUsdt = 0n;
  for (const withdrawal of ledger.processing) {
    if (await sources.minedSuccessfully(withdrawal.txHash)) inFlightUsdt += withdrawal.amount;
  }
  const result = reconcile({
    hotWalletUsdt: onHotWallet.get(hotWallet) ?? 0n,
    depositAddressesUsdt: depositAddresses.reduce((sum, address) => sum + (onDepositAddresses.get(address) ?? 0n), 0n),
    companiesUsdt: ledger.companiesUsdt,
    treasuryUsdt: ledger.treasuryUsdt,
    inFlightUsdt,
  });
  return { ...result, depositAddressesRead: depositAddresses.length };
}
