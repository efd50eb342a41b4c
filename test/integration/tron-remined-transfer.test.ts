import { TRON_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit } from '#functions/deposits/deposits';
import { scanDeposits } from '#functions/deposits/deposit-scan';
import { confirmDeposits } from '#functions/deposits/deposit-confirmation';
import type { ChainReader, TransactionReceipt } from '#functions/networks/chain';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { DynamoDepositChainStore, DynamoScanCursor } from '#adapters/dynamo/deposit-chain-store';
import { useFreshTable } from '../support/dynamo.ts';
import { usdt } from '../support/money.ts';
import { BLOCK_MS, ChainClock, sandboxChainOver, USDT } from '../support/sandbox-chain-jobs.ts';

/*
 * ../shared/networks.md: "A credit uses the Transfer events of the transaction
 * in the final block (a re-mined transaction that no longer moves USDT credits nothing)". On TRON the
 * scanner records transfers from TronGrid's unconfirmed events at the head; confirmDeposits then
 * credited a TRON record on `receipt.result === 'SUCCESS'` alone (its records carry no block hash),
 * though TronGrid's receipt names the transaction's Transfer events: a contract payer (an internal
 * transfer) whose transaction a micro-fork re-mines, succeeding this time without paying the deposit
 * address, was credited in full. The receipt's events now decide (reorganisations.ts stillTransfers).
 */
const env = useFreshTable();
const clock = new ChainClock('2026-11-22T00:00:00.000Z', BLOCK_MS);
const sandbox = sandboxChainOver(env, clock);
const deposits = new DynamoDepositStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);

/** The final chain, as TronGrid answers it after the fork: the transaction re-mined one block later,
 * SUCCESS, its logs holding no Transfer to the deposit address. */
const remined = new Map<string, TransactionReceipt>();
/** A contract that pays: its transfer to the deposit is an inner one, which a re-execution can skip. */
const PAYER_CONTRACT = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 888_001);
/** A full node on a fork the network left: it answers these receipts, the final chain does not. */
const forkedNode = new Map<string, TransactionReceipt>();
/** Receipts no view can answer (a node that fails on this one transaction). */
const failing = new Set<string>();
const answer = async (txHash: string, view: (txHash: string) => Promise<TransactionReceipt | null>) => {
  if (failing.has(txHash)) throw new Error(`the node failed on ${txHash}`);
  return remined.get(txHash) ?? view(txHash);
};
const chain: ChainReader = {
  latestBlock: () => sandbox.latestBlock(),
  finalBlock: () => sandbox.finalBlock(),
  transfers: (contract, from, to) => sandbox.transfers(contract, from, to),
  usdtContracts: (contract) => sandbox.usdtContracts(contract),
  receipt: (txHash) => answer(txHash, async (hash) => forkedNode.get(hash) ?? sandbox.receipt(hash)),
  finalReceipt: (txHash) => answer(txHash, (hash) => sandbox.finalReceipt(hash)),
};
const store = new DynamoDepositChainStore(env.db, env.tableName, 'tron');
const deps = () => ({ network: 'tron' as const, chain, store, usdtContract: USDT, now: clock.now });
const scan = () => scanDeposits({ ...deps(), cursor: new DynamoScanCursor(env.db, env.tableName, 'tron-usdt'), owner: 'scanner' });

beforeAll(async () => {
  clock.advanceBlocks(100);
  await scan();
});

/** A new company's TRON deposit paid `amount` by the contract payer, its head event scanned. */
async function paidDeposit(name: string, amount: string) {
  const { company } = await createCompany(companies, { name, environment: 'sandbox' }, clock.now());
  const deposit = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, company.id, { network: 'tron', reference: `${name}-${amount}` }, clock.now());
  const { txHash, blockNumber } = await sandbox.submitTransfer({ contract: USDT, from: PAYER_CONTRACT, to: deposit.address, amount: usdt(amount) });
  clock.advanceBlocks(1);
  expect((await scan()).recorded).toBe(1); // the head's (unconfirmed) event
  const read = () => getDeposit(deposits, company.id, deposit.id);
  return { deposit, txHash, blockNumber, read };
}

/** Past finality: scanned and confirmed. */
async function confirmLater() {
  clock.advanceBlocks(25);
  await scan();
  return confirmDeposits(deps());
}

describe('TRON credit after a re-mined transaction', () => {
  it('credits nothing when the final chain has the transaction succeed without the transfer', async () => {
    const { deposit, txHash, blockNumber, read } = await paidDeposit('Fork Co', '100');

    // A micro-fork drops that block; the transaction is re-mined in the next one and succeeds there
    // without paying the deposit address (its inner transfer did not happen this time).
    await sandbox.dropTransaction(txHash);
    remined.set(txHash, { txHash, blockNumber: blockNumber + 1, result: 'SUCCESS', tokenTransfers: [] });

    await confirmLater();

    expect(await sandbox.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect(await read()).toMatchObject({ status: 'awaiting_payment', creditedAmount: 0n });
  });

  it('credits a transaction re-mined in another block that still pays the deposit', async () => {
    const { deposit, txHash, blockNumber, read } = await paidDeposit('Fork Paid Co', '100');
    remined.set(txHash, { txHash, blockNumber: blockNumber + 1, result: 'SUCCESS', tokenTransfers: [{ contract: USDT, to: deposit.address, amount: usdt('100') }] });

    await confirmLater();

    expect(await read()).toMatchObject({ status: 'completed', creditedAmount: usdt('100') });
  });
});

describe('TRON credit from the final chain, one receipt at a time', () => {
  it('credits nothing a full node on a forked branch shows at a final height while the final chain does not hold it', async () => {
    const { deposit, txHash, blockNumber, read } = await paidDeposit('Stale Node Co', '100');
    // The network left the branch; the node that answers /wallet still shows it, paid, in its block.
    await sandbox.dropTransaction(txHash);
    forkedNode.set(txHash, { txHash, blockNumber, result: 'SUCCESS', tokenTransfers: [{ contract: USDT, to: deposit.address, amount: usdt('100') }] });

    await confirmLater();

    // Nothing arrived: no credit, and the deposit still waits for a payment.
    expect(await sandbox.tokenBalance(USDT, deposit.address)).toBe(0n);
    expect(await read()).toMatchObject({ creditedAmount: 0n });
    expect((await read()).status).not.toBe('completed');
  });

  it('credits the other deposits when one transaction’s receipt cannot be read, and that one once it can', async () => {
    const { company } = await createCompany(companies, { name: 'Unreadable Co', environment: 'sandbox' }, clock.now());
    const stuck = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, company.id, { network: 'tron', reference: 'unreadable-1' }, clock.now());
    const { company: other } = await createCompany(companies, { name: 'Bystander Co', environment: 'sandbox' }, clock.now());
    const paid = await createDeposit(deposits, TRON_DEPOSIT_SETTINGS, other.id, { network: 'tron', reference: 'bystander-1' }, clock.now());
    const { txHash } = await sandbox.submitTransfer({ contract: USDT, from: PAYER_CONTRACT, to: stuck.address, amount: usdt('1') });
    await sandbox.submitTransfer({ contract: USDT, from: PAYER_CONTRACT, to: paid.address, amount: usdt('250') });
    clock.advanceBlocks(1);
    expect((await scan()).recorded).toBe(2);
    failing.add(txHash);

    const first = await confirmLater();

    expect(await getDeposit(deposits, other.id, paid.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('250') });
    expect(await getDeposit(deposits, company.id, stuck.id)).toMatchObject({ creditedAmount: 0n });
    expect(first.waiting).toBeGreaterThanOrEqual(1);

    failing.delete(txHash);
    await confirmDeposits(deps());
    expect(await getDeposit(deposits, company.id, stuck.id)).toMatchObject({ status: 'completed', creditedAmount: usdt('1') });
  });

  it('leaves a transfer confirming, not dropped, when the node answers a USDT Transfer log it cannot read', async () => {
    const { txHash, blockNumber, read } = await paidDeposit('Garbled Co', '40');
    remined.set(txHash, { txHash, blockNumber, result: 'SUCCESS', tokenTransfers: [], unreadableTransfers: [USDT] });

    await confirmLater();
    // Not dropped as a transaction that no longer pays: the node's answer proves nothing.
    expect(await read()).toMatchObject({ status: 'confirming', receivedAmount: usdt('40'), creditedAmount: 0n });

    remined.delete(txHash);
    await confirmDeposits(deps());
    expect(await read()).toMatchObject({ status: 'completed', creditedAmount: usdt('40') });
  });
});
