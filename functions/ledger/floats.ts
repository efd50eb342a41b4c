import type { NetworkName } from '../networks/names.ts';
import { CAMBIO_BOOKS, EXTERNAL_ACCOUNTS, ledgerEntry, networkAccount, type LedgerEntry } from './ledger.ts';

/**
 * A hot wallet's float: Cambio's own USDT sent to a network's hot wallet so that withdrawals there
 * need not wait for deposits to be swept in. It is money the wallets hold and no company owns, so
 * unless the ledger records it, reconcile reads it as a surplus nobody can explain. Recorded once
 * per funding transaction: USDT came in on the network (`external:<network>`) into Cambio's own
 * float account, which reconcile counts among Cambio's own USDT like fees earned.
 */
export interface HotWalletFloat {
  network: NetworkName;
  /** The transaction that put the USDT on the hot wallet: one float per transaction. */
  txHash: string;
  /** USDT in minor units (6 decimals, whatever the token's decimals on chain). */
  amount: bigint;
}

export function floatEntry(float: HotWalletFloat, now: Date): LedgerEntry {
  if (float.amount <= 0n) throw new Error(`A float is a positive amount of USDT; got ${float.amount}`);
  return ledgerEntry(
    CAMBIO_BOOKS,
    `float:${float.network}:${float.txHash}`,
    [{ source: networkAccount(float.network), destination: EXTERNAL_ACCOUNTS.hotWalletFloat, currency: 'USDT', amount: float.amount }],
    now,
    float.network,
  );
}

export interface FloatStore {
  /** The float and its entry together, unless that transaction's float is already recorded. */
  record(float: HotWalletFloat, entry: LedgerEntry): Promise<'recorded' | 'already_recorded'>;
}

/** Records a float once: a second call for the same network and transaction writes nothing. */
export function recordHotWalletFloat(store: FloatStore, float: HotWalletFloat, now: Date): Promise<'recorded' | 'already_recorded'> {
  return store.record(float, floatEntry(float, now));
}
