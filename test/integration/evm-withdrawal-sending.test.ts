import { erc20Abi, parseUnits, type Address, type Hash } from 'viem';
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount } from 'viem/accounts';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { getWithdrawal, requestWithdrawal, withdrawalView, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { sendEvmWithdrawals, settleEvmWithdrawals, type EvmPayouts, type EvmSendingDeps, type EvmSendingStore } from '#functions/networks/evm/withdrawal-sending';
import { evmChainOf, evmPayoutsOf } from '#functions/networks/evm/from-settings';
import type { SliceSettings } from '#functions/settings/functions';
import { Bep20Usdt } from '#functions/networks/evm/usdt-contracts';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoWithdrawalStore } from '#adapters/dynamo/withdrawal-store';
import { DynamoEvmSendingStore } from '#functions/networks/evm/sending-store';
import { localEvmSigner } from '#functions/networks/evm/signer';
import { ANVIL_MNEMONIC, localWalletClient } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { addStageEntry } from '#functions/screening/screening-import';
import { DynamoScreeningStore } from '#adapters/dynamo/screening-store';
import { creditAvailable, expectLedgerMatchesBalances, usdt, WITHDRAWAL_RULES } from '../support/money.ts';
import { anvilNetworkSettings, useAnvilWithContracts } from '../support/anvil.ts';
import { ANVIL_HOT_WALLET_KEY } from '../support/evm-jobs.ts';

/**
 * USDT withdrawals on an EVM network against a real anvil node (BSC's chain id and USDT's 18
 * decimals there, so every amount is converted): nonces allocated by the conditional write that
 * stores the signed transaction, a sender killed before its broadcast, two senders at once, a
 * reverted transfer, a payout the node refuses for good, and a reorganisation before finality
 * (../shared/networks.md; functions/networks/evm/withdrawal-sending.ts).
 */
const NETWORK = 'bsc';
const CONFIRMATIONS = 3;
const UNIT = 10n ** 12n; // 18 decimals on chain, 6 outside
const env = useFreshTable();
const withdrawals = new DynamoWithdrawalStore(env.db, env.tableName);
const companies = new DynamoCompanyStore(env.db, env.tableName);
const anvil = useAnvilWithContracts({ chainId: 56, usdtDecimals: 18 });
const { client, mine, testClient } = anvil;
let settings: SliceSettings<'chain'>;
let companyId: string;
let deps: EvmSendingDeps;

/** A sender over `account`'s key, as the job builds one; `hotWalletUsdt` false: no float check. */
function senderFor(wallet: Address, key: string, { floatChecked = true } = {}): EvmSendingDeps {
  const chain = evmChainOf(NETWORK, settings);
  return {
    chain,
    payouts: evmPayoutsOf(NETWORK, settings, localEvmSigner(key), chain),
    store: new DynamoEvmSendingStore(env.db, env.tableName, NETWORK),
    ...(floatChecked && { hotWalletUsdt: async () => (await chain.tokenBalance(anvil.node.usdt, wallet)) / UNIT }),
  };
}

/** The same sender with another broadcast: a process that dies right after its write, say. */
const withBroadcast = (sender: EvmSendingDeps, broadcast: EvmPayouts['broadcast']): EvmSendingDeps => ({
  ...sender,
  payouts: {
    wallet: () => sender.payouts.wallet(),
    signedTransfer: (input) => sender.payouts.signedTransfer(input),
    signedFiller: (nonce) => sender.payouts.signedFiller(nonce),
    signedWithMoreGas: (raw) => sender.payouts.signedWithMoreGas(raw),
    signedReplacement: (raw) => sender.payouts.signedReplacement(raw),
    feeCapBelowBaseFee: () => sender.payouts.feeCapBelowBaseFee(),
    broadcast,
  },
});
const killedBeforeBroadcast = (sender: EvmSendingDeps) =>
  withBroadcast(sender, async () => {
    throw new Error('process killed');
  });

async function giveUsdt(to: Address, amount: bigint) {
  const hash = await localWalletClient(anvil.node.chain, anvil.node.deployer).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [to, parseUnits(String(amount), 18)] });
  await client().waitForTransactionReceipt({ hash });
}

const withdraw = (to: string, amount: string): Promise<Withdrawal> =>
  requestWithdrawal(withdrawals, { ...WITHDRAWAL_RULES, networks: { ...WITHDRAWAL_RULES.networks, [NETWORK]: {} } }, companyId, { reference: `w-${Math.random()}`, network: NETWORK, address: to, amount: usdt(amount) }, new Date());
const read = (withdrawal: Withdrawal) => getWithdrawal(withdrawals, companyId, withdrawal.id);
/**
 * An address's USDT once the node has mined what it holds from the hot wallet. anvil's automine
 * mines a transaction just after it answers the broadcast, and on a loaded machine a read could
 * come first (a clean-clone CI run read 0 for a payout the node had taken). A transaction the node
 * keeps waiting on purpose is given two seconds, then the read goes ahead.
 */
const usdtOf = async (address: string) => {
  for (let waited = 0; waited < 2_000; waited += 50) {
    const [mined, taken] = await Promise.all(['latest', 'pending'].map((blockTag) => client().getTransactionCount({ address: anvil.node.hotWallet.address, blockTag: blockTag as 'latest' | 'pending' })));
    if (mined === taken) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return (await client().readContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'balanceOf', args: [address as Address] })) / UNIT;
};
const balance = async () => (await companies.getBalances(companyId)).find((row) => row.currency === 'USDT')!;
const nonceOf = async (txHash: string) => (await client().getTransaction({ hash: txHash as Hash })).nonce;
const newAddress = () => privateKeyToAccount(generatePrivateKey()).address;
/** Another hot wallet, with gas and `usdt` whole USDT. */
async function smallHotWallet(usdtHeld: bigint) {
  const key = generatePrivateKey();
  const { address } = privateKeyToAccount(key);
  await testClient().setBalance({ address, value: parseUnits('10', 18) });
  await giveUsdt(address, usdtHeld);
  return { address, key: key.slice(2) };
}

/** Blocks pass until what was mined is final; then the settling job runs. */
async function settleFinal(sender = deps) {
  await mine(CONFIRMATIONS);
  return settleEvmWithdrawals(sender);
}

beforeAll(async () => {
  const network = anvilNetworkSettings(anvil.node, { chainId: 56, confirmations: CONFIRMATIONS });
  settings = { EVM_NETWORKS: { [NETWORK]: network } } as SliceSettings<'chain'>;
  await giveUsdt(anvil.node.hotWallet.address, 100_000n);
  deps = senderFor(anvil.node.hotWallet.address, ANVIL_HOT_WALLET_KEY);
});

beforeEach(async () => {
  ({ company: { id: companyId } } = await createCompany(companies, { name: 'EVM Sender Co', environment: 'sandbox' }, new Date()));
  await creditAvailable(env.db, env.tableName, companyId, 'USDT', '10000', NETWORK);
});

describe('EVM withdrawals on anvil', () => {
  it("a withdrawal's USDT arrives, exactly; completed once its block is final, with the node's txHash; the fee in the ledger", async () => {
    const to = newAddress();
    const withdrawal = await withdraw(to, '12.5');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
    const processing = await read(withdrawal);
    expect(processing.status).toBe('processing');
    expect(await usdtOf(to)).toBe(usdt('12.5'));
    const receipt = await client().getTransactionReceipt({ hash: processing.txHash as Hash });
    expect(receipt.status).toBe('success');
    expect(receipt.from.toLowerCase()).toBe(anvil.node.hotWallet.address.toLowerCase());

    // Mined but not final: still processing.
    expect(await settleEvmWithdrawals(deps)).toMatchObject({ completed: 0, rebroadcast: 0 });
    expect((await read(withdrawal)).status).toBe('processing');
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    // Its network cost: the gas it used at its effective price, in BNB (bsc's coin), 18 decimals.
    const cost = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(cost).toBeGreaterThan(0n);
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: receipt.transactionHash, completedAt: expect.any(String), networkCost: { asset: 'BNB', amount: cost, tokenAccountCreated: false } });
    const shown = withdrawalView(await read(withdrawal)).networkCost!;
    expect(shown.amount).toMatch(/^\d+\.\d{18}$/);
    expect(parseUnits(shown.amount, 18)).toBe(cost);
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('12.5') - WITHDRAWAL_RULES.fee, locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a withdrawal to an address written all in capitals (one case, as EIP-55 allows) is paid, and so are the ones behind it', async () => {
    // viem's encoder checks an address not all lower case against its checksum: unconverted, the
    // capitals threw at signing, every run, and every payout of the network behind it waited.
    const capitals = newAddress();
    const behind = newAddress();
    const first = await withdraw(`0x${capitals.slice(2).toUpperCase()}`, '2');
    const second = await withdraw(behind, '3');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 2 });
    expect(await usdtOf(capitals)).toBe(usdt('2'));
    expect(await usdtOf(behind)).toBe(usdt('3'));
    expect(await settleFinal()).toMatchObject({ completed: 2 });
    expect((await read(first)).status).toBe('completed');
    expect((await read(second)).status).toBe('completed');
  });

  it('a payout whose receipt the node garbles (its USDT Transfer log without an amount) is not completed from it: it waits, and completes with what it delivered once the receipt reads', async () => {
    const to = newAddress();
    const withdrawal = await withdraw(to, '7');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
    const { txHash } = await read(withdrawal);
    let garbled = true;
    const reader = deps.chain;
    const garbling: EvmSendingDeps = {
      ...deps,
      chain: {
        finalBlock: () => reader.finalBlock(),
        blockAt: (number) => reader.blockAt(number),
        transactionCountAt: (wallet, blockNumber) => reader.transactionCountAt(wallet, blockNumber),
        walletTransactionIn: (wallet, nonce, blockNumber) => reader.walletTransactionIn(wallet, nonce, blockNumber),
        receipt: async (hash) => {
          const receipt = await reader.receipt(hash);
          return receipt && garbled && hash === txHash ? { ...receipt, tokenTransfers: [], unreadableTransfers: [anvil.node.usdt] } : receipt;
        },
      },
    };
    await mine(CONFIRMATIONS);
    expect(await settleEvmWithdrawals(garbling)).toMatchObject({ completed: 0, failed: 0 });
    expect((await read(withdrawal)).status).toBe('processing');
    garbled = false;
    expect(await settleEvmWithdrawals(garbling)).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', deliveredAmount: usdt('7') });
  });

  it('20 withdrawals queued at once: 20 transactions, consecutive nonces, exactly 20 × the amount received', async () => {
    const to = newAddress();
    const queued = await Promise.all(Array.from({ length: 20 }, () => withdraw(to, '3')));
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 20 });
    const hashes = await Promise.all(queued.map(async (withdrawal) => (await read(withdrawal)).txHash!));
    expect(new Set(hashes).size).toBe(20);
    const nonces = (await Promise.all(hashes.map(nonceOf))).sort((a, b) => a - b);
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
    expect(await usdtOf(to)).toBe(usdt('60'));
    expect(await settleFinal()).toMatchObject({ completed: 20 });
    expect(await balance()).toMatchObject({ available: usdt('10000') - 20n * (usdt('3') + WITHDRAWAL_RULES.fee), locked: 0n });
  }, 20_000);

  it('a sender killed between its write and the broadcast: the next run broadcasts the stored transactions, once, and no nonce is skipped', async () => {
    const to = newAddress();
    const sentBefore = await client().getTransactionCount({ address: anvil.node.hotWallet.address });
    const queued = [await withdraw(to, '5'), await withdraw(to, '6')];
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(deps))).toMatchObject({ sent: 2 });
    const stored = await Promise.all(queued.map(read));
    expect(stored.map((withdrawal) => withdrawal.status)).toEqual(['processing', 'processing']);
    expect(stored.map((withdrawal) => withdrawal.transaction!.nonce)).toEqual([sentBefore, sentBefore + 1]);
    expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address })).toBe(sentBefore);
    expect(await usdtOf(to)).toBe(0n);

    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 2 });
    // Broadcast again before it is final (a run that did not see the receipt yet): still once.
    await settleEvmWithdrawals(withBroadcast(deps, (raw) => deps.payouts.broadcast(raw)));
    expect(await usdtOf(to)).toBe(usdt('11'));
    expect(await settleFinal()).toMatchObject({ completed: 2 });

    // The next payout takes the next nonce: nothing skipped, nothing waiting.
    const next = await withdraw(to, '1');
    await sendEvmWithdrawals(deps);
    expect((await read(next)).transaction!.nonce).toBe(sentBefore + 2);
    expect(await usdtOf(to)).toBe(usdt('12'));
    expect(await settleFinal()).toMatchObject({ completed: 1 });
  });

  it('while the token is paused or the hot wallet frozen, a payout whose broadcast was lost is neither broadcast again nor replaced (it would revert, burning gas): it waits processing, and goes once the control lifts', async () => {
    const to = newAddress();
    const sentBefore = await client().getTransactionCount({ address: anvil.node.hotWallet.address });
    const queued = await withdraw(to, '4');
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(deps))).toMatchObject({ sent: 1 });
    // Long past the replacement delay: held back, it is not replaced either.
    const held = { ...deps, replaceAfterMs: 0 };
    for (let run = 0; run < 2; run++) {
      expect(await settleEvmWithdrawals(held, { hotWalletMaySend: false })).toMatchObject({ rebroadcast: 0, replaced: 0, failed: 0 });
      await mine(CONFIRMATIONS);
    }
    expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address })).toBe(sentBefore);
    expect(await read(queued)).toMatchObject({ status: 'processing' });

    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    expect(await usdtOf(to)).toBe(usdt('4'));
  });

  it("a transaction sent from the hot wallet outside Cambio takes a stored payout's nonce: the payout is signed again on a new nonce and lands once, and later payouts start past the nonces used outside", async () => {
    const to = newAddress();
    const outside = localWalletClient(anvil.node.chain, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }));
    const withdrawal = await withdraw(to, '7');
    // Stored on its nonce, not broadcast yet (the process died): someone then spends the wallet's
    // next three nonces by hand, the first of them the payout's.
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(deps))).toMatchObject({ sent: 1 });
    const taken = (await read(withdrawal)).transaction!.nonce!;
    for (let i = 0; i < 3; i++) {
      const hash = await outside.sendTransaction({ to: newAddress(), value: 1n, nonce: taken + i });
      await client().waitForTransactionReceipt({ hash });
    }
    await mine(CONFIRMATIONS);

    // The node would answer "nonce too low" to its broadcast forever: it is signed afresh, past them.
    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 1, completed: 0 });
    const again = await read(withdrawal);
    expect(again).toMatchObject({ status: 'processing' });
    expect(again.transaction!.nonce).toBe(taken + 3);
    expect(await usdtOf(to)).toBe(usdt('7'));
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: again.txHash });
    expect(await nonceOf(again.txHash!)).toBe(taken + 3);

    // Outside again, past the stored sequence this time: once final, the next payout starts after it.
    const used = await client().getTransactionCount({ address: anvil.node.hotWallet.address });
    await client().waitForTransactionReceipt({ hash: await outside.sendTransaction({ to: newAddress(), value: 1n, nonce: used }) });
    await mine(CONFIRMATIONS);
    const next = await withdraw(to, '1');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
    expect((await read(next)).transaction!.nonce).toBe(used + 1);
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    expect(await usdtOf(to)).toBe(usdt('8'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('8') - 2n * WITHDRAWAL_RULES.fee, locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a transaction from the hot wallet outside Cambio that is only pending, then dropped, leaves no nonce unused: the payout signed meanwhile lands', async () => {
    const to = newAddress();
    const outside = localWalletClient(anvil.node.chain, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 1 }));
    const used = await client().getTransactionCount({ address: anvil.node.hotWallet.address });
    // The node mines only when told: the transaction sent by hand waits in its pool on the wallet's
    // next nonce while the sender runs (the pending count is one past the final one).
    await testClient().setAutomine(false);
    try {
      const byHand = await outside.sendTransaction({ to: newAddress(), value: 1n, nonce: used });
      expect(await client().getTransactionCount({ address: anvil.node.hotWallet.address, blockTag: 'pending' })).toBe(used + 1);
      const withdrawal = await withdraw(to, '9');
      expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
      // The transaction sent by hand never lands (dropped from the pool, as a node may drop any).
      await testClient().dropTransaction({ hash: byHand });
      for (let run = 0; run < 3; run++) {
        await settleEvmWithdrawals(deps);
        await mine(1);
      }
      expect(await usdtOf(to)).toBe(usdt('9'));
      expect(await settleFinal()).toMatchObject({ completed: 1 });
      expect(await read(withdrawal)).toMatchObject({ status: 'completed' });
      // Nothing final used the nonce: the payout took it (the node refused it as an underpriced
      // replacement meanwhile, or took it in place of the other).
      expect(await nonceOf((await read(withdrawal)).txHash!)).toBe(used);
    } finally {
      await testClient().setAutomine(true);
    }
    // Nothing left waiting behind a gap: the next payout lands at once.
    const next = await withdraw(to, '1');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
    expect((await read(next)).transaction!.nonce).toBe(used + 1);
    expect(await usdtOf(to)).toBe(usdt('10'));
    expect(await settleFinal()).toMatchObject({ completed: 1 });
  });

  it('a copy read before a fee replacement (which keeps updatedAt) cannot claim a new nonce for the payout, nor one read before its filler was replaced, which cannot write over it either', async () => {
    const withdrawal = await withdraw(newAddress(), '2');
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(deps))).toMatchObject({ sent: 1 });
    const original = await read(withdrawal);
    const store = new DynamoEvmSendingStore(env.db, env.tableName, NETWORK);
    const wallet = anvil.node.hotWallet.address;
    const next = (await store.nextNonce(wallet))!;
    const hash = (byte: string) => `0x${byte.repeat(32)}`;
    /** What settling stores when the node shows the nonce taken outside: the payout signed again on `next`. */
    const signedAgain = (copy: Withdrawal): Withdrawal => ({ ...copy, txHash: hash('cd'), transaction: { ...copy.transaction!, nonce: next }, updatedAt: new Date().toISOString() });

    // A replacement as settling stores it: another hash, the same updatedAt.
    const replaced: Withdrawal = { ...original, txHash: hash('ab'), transaction: { ...original.transaction!, replacedTxHashes: [original.txHash!] } };
    expect(await store.transition(original, replaced, { entry: null, event: null })).toBe(true);
    expect(await store.claimNonce(original, signedAgain(original), { wallet, nonce: next, first: false }, null)).toBe('stale');

    // A filler's replacement changes the filler's hash alone.
    const filler = { signed: original.transaction!.signed, refusal: 'refused', txHash: hash('e1') };
    const filled: Withdrawal = { ...replaced, transaction: { ...replaced.transaction!, filler } };
    expect(await store.transition(replaced, filled, { entry: null, event: null })).toBe(true);
    const fillerReplaced: Withdrawal = { ...filled, transaction: { ...filled.transaction!, filler: { ...filler, txHash: hash('e2'), replacedTxHashes: [filler.txHash] } } };
    expect(await store.transition(filled, fillerReplaced, { entry: null, event: null })).toBe(true);
    expect(await store.claimNonce(filled, signedAgain(filled), { wallet, nonce: next, first: false }, null)).toBe('stale');
    // Nor can that copy write over the replaced filler, which would drop the hash that may land.
    const fillerReplacedAgain: Withdrawal = { ...filled, transaction: { ...filled.transaction!, filler: { ...filler, txHash: hash('e3'), replacedTxHashes: [filler.txHash] } } };
    expect(await store.transition(filled, fillerReplacedAgain, { entry: null, event: null })).toBe(false);
    expect((await read(withdrawal)).transaction!.filler).toMatchObject({ txHash: hash('e2') });
    // Nothing was taken: the sequence still stands at `next`.
    expect(await store.nextNonce(wallet)).toBe(next);

    // Put back as sent, the payout lands as any lost broadcast does.
    expect(await store.transition(fillerReplaced, original, { entry: null, event: null })).toBe(true);
    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash: original.txHash });
  });

  it('a payout whose nonce was taken outside Cambio, and which would now revert: failed with its funds back, not signed again each run', async () => {
    const small = await smallHotWallet(100n);
    const sender = senderFor(small.address, small.key, { floatChecked: false });
    const withdrawal = await withdraw(newAddress(), '60');
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(sender))).toMatchObject({ sent: 1 });
    // By hand, on the payout's nonce, the wallet's USDT leaves: no new payout of 60 could succeed.
    const taken = (await read(withdrawal)).transaction!.nonce!;
    const byHand = localWalletClient(anvil.node.chain, privateKeyToAccount(`0x${small.key}`));
    await client().waitForTransactionReceipt({
      hash: await byHand.writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [newAddress(), parseUnits('100', 18)], nonce: taken }),
    });
    await mine(CONFIRMATIONS);

    expect(await settleEvmWithdrawals(sender)).toMatchObject({ failed: 1, rebroadcast: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'TRANSFER_WOULD_REVERT' });
    expect(await balance()).toMatchObject({ available: usdt('10000'), locked: 0n });
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ failed: 0, rebroadcast: 0 });
    expect(await client().getTransactionCount({ address: small.address })).toBe(taken + 1);
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a payout whose nonce was taken outside Cambio, its destination listed since, is screened before it is signed again: failed DESTINATION_SANCTIONED with its funds back, nothing paid', async () => {
    const small = await smallHotWallet(100n);
    const sender = senderFor(small.address, small.key, { floatChecked: false });
    const to = newAddress();
    const withdrawal = await withdraw(to, '7');
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(sender))).toMatchObject({ sent: 1 });
    const taken = (await read(withdrawal)).transaction!.nonce!;
    const byHand = localWalletClient(anvil.node.chain, privateKeyToAccount(`0x${small.key}`));
    await client().waitForTransactionReceipt({ hash: await byHand.sendTransaction({ to: newAddress(), value: 1n, nonce: taken }) });
    await mine(CONFIRMATIONS);
    await addStageEntry(new DynamoScreeningStore(env.db, env.tableName), { network: NETWORK, address: to, reason: 'listed while its payout was processing', actor: 'test' }, new Date());

    expect(await settleEvmWithdrawals(sender)).toMatchObject({ failed: 1, rebroadcast: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'DESTINATION_SANCTIONED' });
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ failed: 0, rebroadcast: 0 });
    expect(await client().getTransactionCount({ address: small.address })).toBe(taken + 1);
    expect(await usdtOf(to)).toBe(0n);
    expect(await balance()).toMatchObject({ available: usdt('10000'), locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a payout signed while its recipient held USDT still lands when the recipient has emptied its balance before it is mined', async () => {
    // Sending to an address that holds nothing writes a storage slot from zero: ~17,000 gas more
    // than the estimate made while it held some, which a margin of a quarter does not cover.
    const recipient = privateKeyToAccount(generatePrivateKey());
    await testClient().setBalance({ address: recipient.address, value: parseUnits('1', 18) });
    await giveUsdt(recipient.address, 5n);
    const withdrawal = await withdraw(recipient.address, '3');
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(deps))).toMatchObject({ sent: 1 });
    const emptied = await localWalletClient(anvil.node.chain, recipient).writeContract({ address: anvil.node.usdt, abi: Bep20Usdt.abi, functionName: 'transfer', args: [newAddress(), parseUnits('5', 18)] });
    await client().waitForTransactionReceipt({ hash: emptied });
    expect(await usdtOf(recipient.address)).toBe(0n);

    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 1 });
    expect(await settleFinal()).toMatchObject({ completed: 1, failed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', failureReason: null });
    expect(await usdtOf(recipient.address)).toBe(usdt('3'));
  });

  it('two senders at once never use one nonce twice', async () => {
    const to = newAddress();
    const queued = await Promise.all(Array.from({ length: 12 }, () => withdraw(to, '2')));
    // The other sender takes the queue from its far end, so the two are signing different
    // withdrawals at the same moment, each with the next nonce it read.
    const other = senderFor(anvil.node.hotWallet.address, ANVIL_HOT_WALLET_KEY);
    const store = other.store;
    const newestFirst: EvmSendingStore = Object.assign(Object.create(store) as EvmSendingStore, {
      withdrawalsInStatus: async (...page: Parameters<EvmSendingStore['withdrawalsInStatus']>) => (await store.withdrawalsInStatus(...page)).reverse(),
    });
    const [a, b] = await Promise.all([sendEvmWithdrawals(deps), sendEvmWithdrawals({ ...other, store: newestFirst })]);
    expect(a.sent + b.sent).toBe(12);
    const nonces = (await Promise.all(queued.map(async (withdrawal) => (await read(withdrawal)).transaction!.nonce!))).sort((x, y) => x - y);
    expect(nonces).toEqual(nonces.map((_, i) => nonces[0]! + i));
    expect(await usdtOf(to)).toBe(usdt('24'));
    expect(await settleFinal()).toMatchObject({ completed: 12 });
  }, 20_000);

  it('more than a hot wallet holds: the node says it would revert, the withdrawal fails at once with its funds back, no nonce used', async () => {
    const small = await smallHotWallet(100n);
    const sender = senderFor(small.address, small.key, { floatChecked: false });
    const withdrawal = await withdraw(newAddress(), '150');
    expect(await sendEvmWithdrawals(sender)).toMatchObject({ sent: 0, failed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'failed', failureReason: 'TRANSFER_WOULD_REVERT', txHash: null });
    expect(await balance()).toMatchObject({ available: usdt('10000'), locked: 0n });
    expect(await client().getTransactionCount({ address: small.address })).toBe(0);
  });

  it('a transfer that reverts on chain: failed with the reason, its amount and fee back', async () => {
    // Two withdrawals the wallet covers one at a time, not together: each signed against a chain
    // where neither has gone out (their broadcast lost), then both broadcast by the next run.
    const small = await smallHotWallet(100n);
    const sender = senderFor(small.address, small.key, { floatChecked: false });
    const to = newAddress();
    const [first, second] = [await withdraw(to, '60'), await withdraw(to, '60')];
    expect(await sendEvmWithdrawals(killedBeforeBroadcast(sender))).toMatchObject({ sent: 2 });
    expect(await settleEvmWithdrawals(sender)).toMatchObject({ rebroadcast: 2 });
    expect(await settleFinal(sender)).toMatchObject({ completed: 1, failed: 1 });
    expect(await read(first)).toMatchObject({ status: 'completed' });
    // Reverted on chain, it still paid for its gas.
    const reverted = await client().getTransactionReceipt({ hash: (await read(second)).txHash as Hash });
    expect(await read(second)).toMatchObject({ status: 'failed', failureReason: 'REVERTED', completedAt: null, networkCost: { asset: 'BNB', amount: reverted.gasUsed * reverted.effectiveGasPrice } });
    expect(await usdtOf(to)).toBe(usdt('60'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('60') - WITHDRAWAL_RULES.fee, locked: 0n });
    await expectLedgerMatchesBalances(env.db, env.tableName, companyId);
  });

  it('a payout the node refuses for good: its nonce is filled by a transfer of nothing, the withdrawal fails with its funds back, the payouts behind it go on', async () => {
    const to = newAddress();
    const refused = await withdraw(to, '4');
    await sendEvmWithdrawals(killedBeforeBroadcast(deps));
    const { transaction } = await read(refused);
    // Blocks now hold less gas than the stored transfer asks for, but a plain transfer's 21,000.
    await testClient().request({ method: 'evm_setBlockGasLimit' as never, params: [`0x${(30_000).toString(16)}`] as never });
    try {
      expect(await settleEvmWithdrawals(deps)).toMatchObject({ completed: 0, failed: 0 });
    } finally {
      await testClient().request({ method: 'evm_setBlockGasLimit' as never, params: [`0x${(30_000_000).toString(16)}`] as never });
    }
    const filling = await read(refused);
    expect(filling).toMatchObject({ status: 'processing', transaction: { nonce: transaction!.nonce, filler: { refusal: expect.any(String) } } });
    const filler = await client().getTransaction({ hash: filling.transaction!.filler!.txHash as Hash });
    expect({ nonce: filler.nonce, to: filler.to?.toLowerCase(), value: filler.value }).toEqual({ nonce: transaction!.nonce, to: anvil.node.hotWallet.address.toLowerCase(), value: 0n });

    const behind = await withdraw(to, '5');
    expect(await sendEvmWithdrawals(deps)).toMatchObject({ sent: 1 });
    expect((await read(behind)).transaction!.nonce).toBe(transaction!.nonce! + 1);
    expect(await settleFinal()).toMatchObject({ completed: 1, failed: 1 });
    // What the nonce cost is its filler's gas: a plain transfer's 21,000 at its price.
    const fillerReceipt = await client().getTransactionReceipt({ hash: filling.transaction!.filler!.txHash as Hash });
    expect(fillerReceipt.gasUsed).toBe(21_000n);
    expect(await read(refused)).toMatchObject({ status: 'failed', failureReason: 'REFUSED_BY_NODE', networkCost: { asset: 'BNB', amount: 21_000n * fillerReceipt.effectiveGasPrice } });
    expect(await read(behind)).toMatchObject({ status: 'completed' });
    expect(await usdtOf(to)).toBe(usdt('5'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('5') - WITHDRAWAL_RULES.fee, locked: 0n });
  });

  it('a payout whose block is reorganised away before it is final: still processing, the same transaction broadcast again, completed once', async () => {
    const to = newAddress();
    const withdrawal = await withdraw(to, '8');
    await sendEvmWithdrawals(deps);
    const { txHash } = await read(withdrawal);
    expect(await usdtOf(to)).toBe(usdt('8'));
    await testClient().request({ method: 'anvil_reorg' as never, params: [1, []] as never });
    expect(await usdtOf(to)).toBe(0n);

    expect(await settleEvmWithdrawals(deps)).toMatchObject({ rebroadcast: 1, completed: 0 });
    expect(await read(withdrawal)).toMatchObject({ status: 'processing', txHash });
    expect(await usdtOf(to)).toBe(usdt('8'));
    expect(await settleFinal()).toMatchObject({ completed: 1 });
    expect(await read(withdrawal)).toMatchObject({ status: 'completed', txHash });
    expect(await usdtOf(to)).toBe(usdt('8'));
    expect(await balance()).toMatchObject({ available: usdt('10000') - usdt('8') - WITHDRAWAL_RULES.fee, locked: 0n });
  });
});
