import type { ChainReader, TransactionReceipt } from '../networks/chain.ts';
import { inParallel } from '../shared/in-parallel.ts';
import { stderrLog } from '../shared/log.ts';
import { dropTransfer, moveTransfer, type TransferRecord } from './deposit-transitions.ts';
import { applySteps, RECEIPTS_IN_FLIGHT, type DepositJobDeps, type DepositStep } from './deposit-chain.ts';

/**
 * Reorganisations under the deposits: a transfer recorded in a block the node no longer has moves
 * with its transaction, or is dropped, and a credit uses the Transfer events of the transaction in
 * the final block (../shared/networks.md, "Finality, reorganisations and the node").
 */

/**
 * What a reorganisation changed under the transfers still confirming: each was recorded with its
 * block's hash, and where the node now has another block at that height (or none), the transfer's
 * block was replaced (a node without the height is behind, and is asked again). Its transaction
 * re-mined elsewhere, its receipt still holding the transfer (stillTransfers), moves the record
 * there; failed this time, or mined again without the transfer, the transfer is dropped from its
 * deposit at once, its pending amount taken back and
 * `deposit.transfer_reversed` written, rather than at finality. Only chains that report block
 * hashes (ChainReader.blockAt) are checked: one read of the confirming transfers per scan, and one
 * block read per height that holds any.
 *
 * A transaction no view knows proves nothing by itself: a provider's machines disagree (one on a
 * stale fork answers another block at the height, another not yet synced knows no receipt, and
 * its logs may lack the payment too). Dropped then, a payment that never moved would be seen again
 * only if a scan read its block again, and none does below the finality depth (on Arbitrum 240
 * blocks are read again while `finalized` trails by some 4,800). So such a transfer stays
 * confirming, its money pending, and the confirmer decides at finality from both views, dropping
 * it only when neither knows it a settling margin past its block (confirmDeposits).
 */
export async function undoReorganised(deps: DepositJobDeps, latest: number, now: () => Date): Promise<void> {
  const { chain } = deps;
  if (!chain.blockAt) return;
  const records = (await deps.store.confirmingTransfers()).filter((record) => record.blockHash !== undefined);
  if (records.length === 0) return;
  const hashes = await blockHashesOf(chain, records);
  // A height the node does not have yet is a node behind the one that gave `latest`, not a
  // replaced block: asked again at the next scan.
  const replaced = records.filter((record) => {
    const hash = hashes.get(record.blockNumber);
    return hash != null && hash !== record.blockHash;
  });
  if (replaced.length === 0) return;
  const contracts = await usdtContractsOf(deps);
  const steps: DepositStep<null>[] = [];
  await inParallel(replaced, RECEIPTS_IN_FLIGHT, async (record) => {
    const receipt = await chain.receipt(record.txHash);
    const owner = { companyId: record.companyId, depositId: record.depositId };
    // The receipt still in the recorded block: the node's answers disagree (another machine behind
    // the provider); the next scan asks again.
    if (receipt?.result === 'SUCCESS' && receipt.blockHash === record.blockHash) return;
    if (receipt === null) {
      (deps.log ?? stderrLog).warn('a deposit transfer whose block a node replaced is unknown to it: left confirming until its block is final', {
        depositId: record.depositId,
        txHash: record.txHash,
        blockNumber: record.blockNumber,
      });
      return;
    }
    if (unreadableUsdt(receipt, contracts)) {
      (deps.log ?? stderrLog).error('the node answered a USDT Transfer log it cannot read: the deposit transfer is left confirming', { depositId: record.depositId, txHash: record.txHash });
      return;
    }
    const minedAgain = receipt.result === 'SUCCESS' && receipt.blockHash !== undefined;
    const remined = minedAgain && stillTransfers(receipt, record, contracts);
    const happened = remined ? 'a deposit transfer was re-mined in another block' : minedAgain ? 'a deposit transaction was re-mined without its transfer' : 'a deposit transaction failed when mined again after a reorganisation';
    (deps.log ?? stderrLog).warn(happened, {
      depositId: record.depositId,
      txHash: record.txHash,
      blockNumber: record.blockNumber,
      ...(minedAgain && { nowIn: receipt.blockNumber }),
    });
    steps.push({
      owner,
      build: (deposit) =>
        remined ? moveTransfer(deposit, record, { blockNumber: receipt.blockNumber, blockHash: receipt.blockHash! }, latest, now()) : dropTransfer(deposit, record, now()),
      outcome: null,
    });
  });
  await applySteps(deps.store, steps);
}

/** The contracts whose Transfer events are USDT's on the deposits' chain (ChainReader.usdtContracts). */
export async function usdtContractsOf(deps: Pick<DepositJobDeps, 'chain' | 'usdtContract'>): Promise<string[]> {
  return deps.chain.usdtContracts ? deps.chain.usdtContracts(deps.usdtContract) : [deps.usdtContract];
}

/**
 * Whether a receipt's Transfer events still hold a recorded transfer: at the same place among a USDT
 * contract's Transfer events of the transaction, from the same payer, to the same address, for the
 * same amount. A transaction mined again after a reorganisation can succeed without it (a contract
 * payer, as a Safe can be, whose inner transfer fails this time), so success alone credits
 * nothing (../shared/networks.md: a credit uses the Transfer events of the transaction in the final
 * block). A record made before its payer or address was kept is matched on what it has.
 */
export function stillTransfers(receipt: TransactionReceipt, record: TransferRecord, contracts: string[]): boolean {
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  // Place and payer where the reader gives them (EVM, Solana); TRON's receipt names neither, and is
  // matched on contract, recipient and amount.
  return (receipt.tokenTransfers ?? []).some(
    (transfer) =>
      (transfer.eventIndex === undefined || transfer.eventIndex === record.eventIndex) &&
      contracts.some((contract) => same(contract, transfer.contract)) &&
      transfer.amount === record.amount &&
      (record.to === undefined || same(transfer.to, record.to)) &&
      (record.from === undefined || transfer.from === undefined || same(transfer.from, record.from)),
  );
}

/** Whether a receipt has a log with the Transfer topic from a USDT contract that could not be read
 * (TransactionReceipt.unreadableTransfers): USDT's own logs are always readable, so the node
 * answered wrongly, and nothing is concluded from the receipt. */
export function unreadableUsdt(receipt: TransactionReceipt, contracts: string[]): boolean {
  return (receipt.unreadableTransfers ?? []).some((emitter) => contracts.some((contract) => contract.toLowerCase() === emitter.toLowerCase()));
}

/** The node's block hash now at each height that holds one of `records` (null past its head), for
 * chains that report hashes (ChainReader.blockAt): one block read per height. */
export async function blockHashesOf(chain: ChainReader, records: TransferRecord[]): Promise<Map<number, string | null>> {
  return blockHashesAt(chain, records.map((record) => record.blockNumber));
}

/** The node's block hash now at each of these heights (null past its head): one block read per height. */
export async function blockHashesAt(chain: ChainReader, heights: number[]): Promise<Map<number, string | null>> {
  const hashes = new Map<number, string | null>();
  if (!chain.blockAt) return hashes;
  await inParallel([...new Set(heights)], RECEIPTS_IN_FLIGHT, async (height) => {
    hashes.set(height, (await chain.blockAt!(height))?.hash ?? null);
  });
  return hashes;
}
