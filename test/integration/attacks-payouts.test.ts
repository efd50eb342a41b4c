import { beforeAll, describe, expect, it } from 'vitest';
import { QueryCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { createCompany } from '#functions/companies/company';
import { requestWithdrawal, getWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { sendWithdrawals, settleWithdrawals } from '#functions/networks/tron/withdrawal-sending';
import type { TransferBuilder, UnsignedTransfer } from '#functions/networks/chain';
import { DuplicateOfAnotherPayout, broadcastOwned, withdrawalOwner } from '#functions/withdrawals/payouts';
import { reconcile, reconciliationReport } from '#functions/ledger/reconciliation';
import { TEST_MNEMONIC_ACCOUNT_XPUB, deriveDepositAddress } from '#functions/networks/tron/tron-address';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoTransactionClaims } from '#adapters/dynamo/transaction-claims';
import { SANDBOX_TRX, BroadcastRefused } from '#functions/networks/tron/sandbox-chain';
import { SANDBOX_FEES, SANDBOX_TREASURY_TRX_SUN } from '#functions/networks/tron/sandbox-balances';
import { LocalKeySigner } from '#adapters/signer/local-key-signer';
import { sandboxTransferItem } from '#adapters/dynamo/items/sandbox-chain';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { sandboxChainWithHotWallet, sandboxSending, USDT } from '../support/sandbox-chain-jobs.ts';

/**
 * Issue #12's critical attack, kept: equal withdrawals (same address, same amount, same block,
 * one company or several) must each leave as a transaction of their own, and a node's "duplicate"
 * answer must never pass for another payout's transfer. Run against the sandbox chain, which keeps
 * balances and refuses duplicates as TRON does, on DynamoDB Local.
 */
const CUSTOMER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 555_555);

const { env, clock, hotWallet: signer, chain } = sandboxChainWithHotWallet('2026-11-23T00:00:00.000Z');
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const claims = new DynamoTransactionClaims(env.db, env.tableName);
let hotWallet: string;
const deps = sandboxSending(env, chain, signer, clock, { claims, hotWalletUsdt: () => chain.tokenBalance(USDT, hotWallet) });


/** A company with `funds` USDT available, backed by the same USDT on the hot wallet. */
async function fundedCompany(name: string, funds: string): Promise<string> {
  const { company } = await createCompany(companies, { name, environment: 'sandbox' }, clock.now());
  await creditAvailable(env.db, env.tableName, company.id, 'USDT', funds);
  await chain.submitTransfer({ contract: USDT, from: CUSTOMER, to: hotWallet, amount: usdt(funds) });
  return company.id;
}

const withdraw = (companyId: string, to: string, amount: string) =>
  requestWithdrawal(withdrawals, WITHDRAWAL_RULES, companyId, { reference: `w-${Math.random()}`, address: to, amount: usdt(amount) }, clock.now());

async function sendAndSettle(): Promise<void> {
  await sendWithdrawals(deps);
  clock.advanceBlocks(20);
  await settleWithdrawals(deps);
}

/** The USDT transfers the chain holds to `to` with a SUCCESS receipt. */
async function receivedOnChain(to: string): Promise<{ txHash: string; amount: bigint }[]> {
  const { Items = [] } = await env.db.send(
    new QueryCommand({ TableName: env.tableName, KeyConditionExpression: 'PK = :pk', FilterExpression: '#to = :to AND contract = :usdt', ExpressionAttributeNames: { '#to': 'to' }, ExpressionAttributeValues: { ':pk': sandboxTransferItem.partition, ':to': to, ':usdt': USDT } }),
  );
  const received: { txHash: string; amount: bigint }[] = [];
  for (const item of Items) {
    if ((await chain.receipt(item.txHash as string))?.result === 'SUCCESS') received.push({ txHash: item.txHash as string, amount: BigInt(item.amount.toString()) });
  }
  return received;
}

const freshDestination = () => deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 700_000 + Math.floor(Math.random() * 100_000));

beforeAll(async () => {
  hotWallet = await signer.address();
  clock.advanceBlocks(50);
});

describe('equal payouts are distinct transfers on chain', () => {
  it('3 × "2" and 2 × "1.5" USDT to one address in one block: 5 transfers, 9 USDT received, each withdrawal its own txHash', async () => {
    const companyId = await fundedCompany('Equal Co', '100');
    const to = freshDestination();
    const created = [];
    for (const amount of ['2', '2', '2', '1.5', '1.5']) created.push(await withdraw(companyId, to, amount));
    await sendAndSettle();

    const settled = await Promise.all(created.map((w) => getWithdrawal(withdrawals, companyId, w.id)));
    expect(settled.map((w) => w.status)).toEqual(Array(5).fill('completed'));
    expect(new Set(settled.map((w) => w.txHash)).size).toBe(5);
    const received = await receivedOnChain(to);
    expect(received).toHaveLength(5);
    expect(received.reduce((sum, t) => sum + t.amount, 0n)).toBe(usdt('9'));
    for (const withdrawal of settled) expect(await claims.ownerOf(withdrawal.txHash!)).toBe(withdrawalOwner(withdrawal.id));
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('20 identical withdrawals from two companies to one address in one block: 20 transfers, 20 × the amount received', async () => {
    const a = await fundedCompany('Twin A', '100');
    const b = await fundedCompany('Twin B', '100');
    const to = freshDestination();
    const created: [string, Withdrawal][] = [];
    for (let i = 0; i < 10; i++) {
      created.push([a, await withdraw(a, to, '3')]);
      created.push([b, await withdraw(b, to, '3')]);
    }
    await sendAndSettle();

    const settled = await Promise.all(created.map(([companyId, w]) => getWithdrawal(withdrawals, companyId, w.id)));
    expect(settled.every((w) => w.status === 'completed')).toBe(true);
    expect(new Set(settled.map((w) => w.txHash)).size).toBe(20);
    const received = await receivedOnChain(to);
    expect(received).toHaveLength(20);
    expect(received.reduce((sum, t) => sum + t.amount, 0n)).toBe(usdt('60'));
  });

  it('a transaction id already claimed by another payout is refused by DynamoDB and the second withdrawal signs afresh', async () => {
    const companyId = await fundedCompany('Collision Co', '50');
    const to = freshDestination();
    // Two senders in two processes can build the same bytes: replay the first transaction once.
    let first: UnsignedTransfer | undefined;
    let replays = 0;
    const colliding: TransferBuilder = {
      usdtTransfer: async (input) => {
        const built = await deps.builder.usdtTransfer(input);
        if (!first) return (first = built);
        if (replays++ === 0) return first;
        return built;
      },
      signed: (unsigned, signature) => deps.builder.signed(unsigned, signature),
    };
    const [one, two] = [await withdraw(companyId, to, '4'), await withdraw(companyId, to, '4')];
    await sendWithdrawals({ ...deps, builder: colliding });
    clock.advanceBlocks(20);
    await settleWithdrawals(deps);

    expect(replays).toBeGreaterThanOrEqual(1);
    const [w1, w2] = await Promise.all([one, two].map((w) => getWithdrawal(withdrawals, companyId, w.id)));
    expect(w1!.txHash).not.toBe(w2!.txHash);
    expect([w1!.status, w2!.status]).toEqual(['completed', 'completed']);
    expect((await receivedOnChain(to)).reduce((sum, t) => sum + t.amount, 0n)).toBe(usdt('8'));
  });

  it("a node's duplicate answer for another payout's id is not taken as sent: the withdrawal gets its own transaction", async () => {
    const companyId = await fundedCompany('Collapsed Co', '50');
    const to = freshDestination();
    const owner = await withdraw(companyId, to, '5');
    await sendWithdrawals(deps);
    const sent = await getWithdrawal(withdrawals, companyId, owner.id);

    // A withdrawal stored (as before claims existed) with the other one's signed transaction.
    const victim = await withdraw(companyId, to, '5');
    const collapsed: Withdrawal = { ...victim, status: 'processing', txHash: sent.txHash, transaction: { ...sent.transaction!, broadcastAt: null }, updatedAt: clock.now().toISOString() };
    await env.db.send(new PutCommand({ TableName: env.tableName, Item: withdrawalItem.toItem(collapsed) }));

    const signed = JSON.parse(sent.transaction!.signed) as Record<string, unknown>;
    await expect(broadcastOwned(chain, claims, sent.txHash!, signed, withdrawalOwner(victim.id))).rejects.toBeInstanceOf(DuplicateOfAnotherPayout);
    expect(await broadcastOwned(chain, claims, sent.txHash!, signed, withdrawalOwner(owner.id))).toBe('rebroadcast');

    // The settling run rebroadcasts the victim's stored transaction, hears "duplicate" for an id
    // it does not own, and signs it a transaction of its own instead of counting it sent.
    await settleWithdrawals(deps);
    const resigned = await getWithdrawal(withdrawals, companyId, victim.id);
    expect(resigned.txHash).not.toBe(sent.txHash);
    expect(await claims.ownerOf(resigned.txHash!)).toBe(withdrawalOwner(victim.id));
    await settleWithdrawals(deps);
    clock.advanceBlocks(20);
    await settleWithdrawals(deps);
    expect((await getWithdrawal(withdrawals, companyId, victim.id)).status).toBe('completed');
    const received = await receivedOnChain(to);
    expect(received).toHaveLength(2);
    expect(received.reduce((sum, t) => sum + t.amount, 0n)).toBe(usdt('10'));
  });
});

describe('the sandbox chain executes what Cambio broadcasts as TRON does', () => {
  const signedTransfer = async (signer: LocalKeySigner, to: string, amount: bigint) => {
    const unsigned = await deps.builder.usdtTransfer({ from: await signer.address(), to, amount });
    const signature = await signer.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
    return { txId: unsigned.txId, signed: { ...unsigned.transaction, signature: [Buffer.from(signature).toString('hex')] } };
  };

  it('more USDT than the sender holds: mined REVERT, no USDT moves, the fee burns; an exact duplicate is refused as a duplicate', async () => {
    const signer = new LocalKeySigner('3'.repeat(64));
    const sender = await signer.address();
    await chain.submitTransfer({ contract: USDT, from: CUSTOMER, to: sender, amount: usdt('5') });
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: CUSTOMER, to: sender, amount: 50_000_000n });
    const to = freshDestination();

    const { txId, signed } = await signedTransfer(signer, to, usdt('6'));
    expect(await chain.broadcast(signed)).toBe('accepted');
    expect(await chain.broadcast(signed)).toBe('duplicate');
    clock.advanceBlocks(1);
    expect(await chain.receipt(txId)).toMatchObject({ result: 'REVERT' });
    expect(await chain.tokenBalance(USDT, sender)).toBe(usdt('5'));
    expect(await chain.tokenBalance(USDT, to)).toBe(0n);
    expect(await chain.feeBalance(sender)).toBe(50_000_000n - SANDBOX_FEES.trc20TransferSun);

    const covered = await signedTransfer(signer, to, usdt('5'));
    await chain.broadcast(covered.signed);
    clock.advanceBlocks(1);
    expect(await chain.receipt(covered.txId)).toMatchObject({ result: 'SUCCESS' });
    expect(await chain.tokenBalance(USDT, to)).toBe(usdt('5'));
    expect(await chain.feeBalance(sender)).toBe(50_000_000n - 2n * SANDBOX_FEES.trc20TransferSun);
  });

  it('without the TRX for the fee: mined OUT_OF_ENERGY, nothing moves; a TRX transfer it cannot cover is refused', async () => {
    const signer = new LocalKeySigner('4'.repeat(64));
    const sender = await signer.address();
    await chain.submitTransfer({ contract: USDT, from: CUSTOMER, to: sender, amount: usdt('5') });
    const { txId, signed } = await signedTransfer(signer, freshDestination(), usdt('1'));
    await chain.broadcast(signed);
    clock.advanceBlocks(1);
    expect(await chain.receipt(txId)).toMatchObject({ result: 'OUT_OF_ENERGY' });
    expect(await chain.tokenBalance(USDT, sender)).toBe(usdt('5'));

    const trx = await deps.builder.feeTransfer({ from: sender, to: freshDestination(), amount: 1_000_000n });
    const signature = await signer.signTransactionId(Buffer.from(trx.txId, 'hex'));
    await expect(chain.broadcast({ ...trx.transaction, signature: [Buffer.from(signature).toString('hex')] })).rejects.toBeInstanceOf(BroadcastRefused);
  });

  it('takes a signature whose v is the recovery id (0 or 1, as BitGo signs) or 27 plus it, as java-tron does, and no other v', async () => {
    const signer = new LocalKeySigner('5'.repeat(64));
    const sender = await signer.address();
    await chain.submitTransfer({ contract: USDT, from: CUSTOMER, to: sender, amount: usdt('100') });
    await chain.submitTransfer({ contract: SANDBOX_TRX, from: CUSTOMER, to: sender, amount: 500_000_000n });
    /** A fresh transfer (its own id) with its signature's last byte replaced by `v(recovery id)`. */
    let sent = 0;
    const signedWithV = async (v: (recovery: number) => number) => {
      const { txId, signed } = await signedTransfer(signer, freshDestination(), 1_000_000n + BigInt(sent++));
      const signature = Buffer.from(signed.signature[0]!, 'hex');
      const recovery = signature[64]! - 27;
      signature[64] = v(recovery);
      return { txId, recovery, signed: { ...signed, signature: [signature.toString('hex')] } };
    };

    const accepted = new Map<number, string[]>();
    for (const v of [(recovery: number) => recovery, (recovery: number) => 27 + recovery]) {
      // Signatures come with either recovery id: sign until both were sent in this form.
      const seen = new Set<number>();
      while (seen.size < 2) {
        const { txId, recovery, signed } = await signedWithV(v);
        seen.add(recovery);
        expect(await chain.broadcast(signed)).toBe('accepted');
        accepted.set(v(recovery), [...(accepted.get(v(recovery)) ?? []), txId]);
      }
    }
    expect([...accepted.keys()].sort((a, b) => a - b)).toEqual([0, 1, 27, 28]);
    clock.advanceBlocks(1);
    for (const txId of [...accepted.values()].flat()) expect(await chain.receipt(txId)).toMatchObject({ result: 'SUCCESS' });

    for (const v of [(recovery: number) => 1 - recovery, (recovery: number) => 28 - recovery, () => 2, () => 3, () => 26, () => 29, () => 31, () => 255]) {
      const { signed } = await signedWithV(v);
      await expect(chain.broadcast(signed)).rejects.toThrow(/^SIGERROR/);
    }
  });

  it("the hot wallet's TRX comes from one treasury grant; its USDT only from what was paid in", async () => {
    expect(await chain.feeBalance(hotWallet)).toBeLessThan(SANDBOX_TREASURY_TRX_SUN);
    expect(await chain.feeBalance(hotWallet)).toBeGreaterThan(SANDBOX_TREASURY_TRX_SUN - 1_000_000_000n);
  });
});

describe('reconcile names the way it is off', () => {
  it('a surplus beyond dust is a mismatch, as a shortfall is; dust is not', () => {
    const base = { depositAddressesUsdt: 0n, companiesUsdt: usdt('100'), treasuryUsdt: 0n, inFlightUsdt: 0n };
    const surplus = reconcile({ ...base, hotWalletUsdt: usdt('103.5') });
    expect(surplus.mismatch).toBe('surplus');
    expect(reconciliationReport(surplus)).toContain('MISMATCH: 3.500000 USDT (surplus)');
    expect(reconcile({ ...base, hotWalletUsdt: usdt('96') }).mismatch).toBe('shortfall');
    expect(reconcile({ ...base, hotWalletUsdt: usdt('100.000001') })).toMatchObject({ mismatch: null, balanced: false });
  });
});
