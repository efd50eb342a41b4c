import type { ChainReader } from '../networks/chain.ts';
import { operatorAuditEntry, type OperatorAuditEntry } from '../operations/operator-audit.ts';
import { formatAmount } from '../shared/money.ts';
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
  /** The float, its entry and the operator's audit entry (if any) together, unless that
   * transaction's float is already recorded (then nothing is written). */
  record(float: HotWalletFloat, entry: LedgerEntry, audit?: OperatorAuditEntry | null): Promise<'recorded' | 'already_recorded'>;
}

/**
 * Records a float once: a second call for the same network and transaction writes nothing. With
 * `operator` (who ran `npm run float:record`, `alice@ops-laptop`), an operator audit entry
 * (`float.recorded`) goes in the same transaction as the float's ledger entry; the local runtime's
 * own floats at start (local/runtime.ts) are no operator's and have none.
 */
export function recordHotWalletFloat(store: FloatStore, float: HotWalletFloat, now: Date, operator: string | null = null): Promise<'recorded' | 'already_recorded'> {
  const entry = floatEntry(float, now);
  const details = { network: float.network, txHash: float.txHash, amount: formatAmount(float.amount, 'USDT'), currency: 'USDT', ledgerEntryId: entry.id };
  const audit = operator === null ? null : operatorAuditEntry('float.recorded', operator, `${float.network}:${float.txHash}`, details, now);
  return store.record(float, entry, audit);
}

/** Why a funding transaction cannot be recorded as a float; nothing was written. */
export class FloatRefused extends Error {}

/** What reading a funding transaction needs of its network (functions/networks/chain.ts). */
export type FloatChain = Pick<ChainReader, 'finalReceipt' | 'transfers'>;

/**
 * The float a funding transaction put on the hot wallet, as the final chain shows it: the USDT its
 * Transfer events moved to the hot wallet, in 6 decimals. Refused (FloatRefused) while it is in no
 * final block, when it failed, when it moved no USDT to the hot wallet, or when the USDT came from
 * one of Cambio's deposit addresses: that is a sweep, whose USDT the ledger already owes to a company.
 */
export async function fundedFloat(
  chain: FloatChain,
  input: { network: NetworkName; txHash: string; usdtContract: string; hotWallet: string; isDepositAddress(address: string): Promise<boolean> },
): Promise<HotWalletFloat> {
  const receipt = await chain.finalReceipt(input.txHash);
  if (!receipt) throw new FloatRefused(`${input.txHash} is in no final block on ${input.network} (not yet, or not at all): record it once it is final`);
  if (receipt.result !== 'SUCCESS') throw new FloatRefused(`${input.txHash} failed on ${input.network} (${receipt.result}): it moved nothing`);
  const same = (a: string, b: string) => (a.startsWith('0x') ? a.toLowerCase() === b.toLowerCase() : a === b);
  const toHotWallet = (await chain.transfers(input.usdtContract, receipt.blockNumber, receipt.blockNumber)).filter(
    (transfer) => same(transfer.txHash, receipt.txHash) && same(transfer.to, input.hotWallet) && !same(transfer.from, input.hotWallet),
  );
  if (toHotWallet.length === 0) throw new FloatRefused(`${input.txHash} moved no USDT to the hot wallet ${input.hotWallet} on ${input.network}`);
  for (const transfer of toHotWallet) {
    if (await input.isDepositAddress(transfer.from)) throw new FloatRefused(`${input.txHash} is a sweep from the deposit address ${transfer.from}, not a float: its USDT is already in the ledger`);
  }
  const amount = toHotWallet.reduce((sum, transfer) => sum + transfer.amount, 0n);
  if (amount === 0n) throw new FloatRefused(`${input.txHash} moved less than 0.000001 USDT to the hot wallet`);
  return { network: input.network, txHash: receipt.txHash, amount };
}
