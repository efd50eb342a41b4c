import { TronWeb } from 'tronweb';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastRefused, SANDBOX_ISSUER, SANDBOX_TRX, SANDBOX_UPGRADED_USDT, type SandboxChain } from '#functions/networks/tron/sandbox-chain';
import { SANDBOX_FEES } from '#functions/networks/tron/sandbox-balances';
import { SANDBOX_PAYER, sandboxPayer } from '#functions/networks/tron/sandbox-payer';
import { tronSandboxIssuer } from '#functions/networks/tron/sandbox-issuer';
import { TronTransferBuilder } from '#functions/networks/tron/tron-transfer-builder';
import { deriveDepositAddress, TEST_MNEMONIC_ACCOUNT_XPUB } from '#functions/networks/tron/tron-address';
import type { LocalKeySigner } from '#adapters/signer/local-key-signer';
import type { SandboxIssuer } from '#functions/networks/sandbox-issuer';
import { sandboxChainWithHotWallet, USDT, type ChainClock } from '../support/sandbox-chain-jobs.ts';
import { usdt } from '../support/money.ts';

/**
 * The sandbox chain's USDT under its issuer's four controls, as Tether's TetherToken has them on
 * TRON (../shared/networks.md, "The token as it is on mainnet"): set through the issuer the
 * `sandbox:issuer` command drives, met by transactions Cambio signs (the hot wallet's) and by
 * payments from outside (`sandbox:pay`), and read back through the chain's TokenControls.
 */

const RECIPIENT = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 606_001);
const OTHER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 606_002);
/** Any other token: it has no issuer, so nothing the issuer does touches it. */
const LOOK_ALIKE = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 606_003);

/** What one test stands on: its own table and chain, the hot wallet funded with USDT from outside
 * and with its TRX (granted at its first broadcast, here a first payout). */
function sandboxWithIssuer(startsAt: string) {
  const setup = sandboxChainWithHotWallet(startsAt);
  const issuer = tronSandboxIssuer(setup.env.db, setup.env.tableName);
  beforeAll(async () => {
    setup.clock.advanceBlocks(50);
    await setup.chain.submitTransfer({ contract: USDT, from: OTHER, to: await setup.hotWallet.address(), amount: usdt('1000') });
    setup.clock.advanceBlocks(1);
    expect((await send(setup.chain, setup.clock, setup.hotWallet, OTHER, usdt('1'))).result).toBe('SUCCESS');
  });
  return { ...setup, issuer };
}

/** A USDT transfer the hot wallet signs and broadcasts through `contract`, mined one block later. */
async function send(chain: SandboxChain, clock: ChainClock, hotWallet: LocalKeySigner, to: string, amount: bigint, contract = USDT) {
  const builder = new TronTransferBuilder(chain, { usdtContract: contract, feeLimitSun: 30_000_000 });
  const unsigned = await builder.usdtTransfer({ from: await hotWallet.address(), to, amount });
  const signature = await hotWallet.signTransactionId(Buffer.from(unsigned.txId, 'hex'));
  expect(await chain.broadcast(builder.signed(unsigned, signature))).toBe('accepted');
  clock.advanceBlocks(1);
  const receipt = await chain.receipt(unsigned.txId);
  return { txHash: unsigned.txId, blockNumber: receipt!.blockNumber, result: receipt!.result };
}

/** A payment from the sandbox payer (`sandbox:pay`), mined one block later. */
async function pay(chain: SandboxChain, clock: ChainClock, to: string, amount: bigint, contract = USDT) {
  const { txHash } = await sandboxPayer(chain, contract).pay(to, amount);
  clock.advanceBlocks(1);
  const receipt = await chain.receipt(txHash);
  return { txHash, blockNumber: receipt!.blockNumber, result: receipt!.result };
}

async function liftEverything(issuer: SandboxIssuer, addresses: string[]) {
  await issuer.unpause();
  await issuer.setFee(0, 0n);
  for (const address of addresses) await issuer.unfreeze(address);
}

describe('the sandbox issuer’s addresses', () => {
  it('are fixed, valid base58 TRON addresses of their own, derived from the public test account', () => {
    expect(SANDBOX_ISSUER).toBe(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_001));
    expect(SANDBOX_UPGRADED_USDT).toBe(deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_002));
    // tronweb is the independent judge of the form.
    expect(TronWeb.isAddress(SANDBOX_ISSUER) && SANDBOX_ISSUER.startsWith('T')).toBe(true);
    expect(TronWeb.isAddress(SANDBOX_UPGRADED_USDT) && SANDBOX_UPGRADED_USDT.startsWith('T')).toBe(true);
    expect(new Set([SANDBOX_ISSUER, SANDBOX_UPGRADED_USDT, SANDBOX_PAYER, USDT]).size).toBe(4);
  });
});

describe('freeze, pause and fee on the sandbox chain', () => {
  const { clock, hotWallet, chain, issuer } = sandboxWithIssuer('2026-12-01T00:00:00.000Z');
  afterEach(async () => liftEverything(issuer, [await hotWallet.address(), SANDBOX_PAYER]));

  it('freeze: a transfer from the frozen address REVERTs, its fee burnt, and frozenAmong reports it; unfreeze: it goes', async () => {
    const hot = await hotWallet.address();
    await issuer.freeze(hot);

    expect(await chain.frozenAmong(USDT, [hot, RECIPIENT])).toEqual(new Set([hot]));
    // Only the issuer's token is frozen: any other contract has no issuer.
    expect(await chain.frozenAmong(LOOK_ALIKE, [hot])).toEqual(new Set());
    const [usdtBefore, trxBefore, recipientBefore] = [await chain.tokenBalance(USDT, hot), await chain.feeBalance(hot), await chain.tokenBalance(USDT, RECIPIENT)];

    const reverted = await send(chain, clock, hotWallet, RECIPIENT, usdt('5'));

    expect(reverted.result).toBe('REVERT');
    expect(await chain.tokenBalance(USDT, hot)).toBe(usdtBefore);
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(recipientBefore);
    expect(await chain.feeBalance(hot)).toBe(trxBefore - SANDBOX_FEES.trc20TransferSun);

    await issuer.unfreeze(hot);
    expect(await chain.frozenAmong(USDT, [hot, RECIPIENT])).toEqual(new Set());
    const sent = await send(chain, clock, hotWallet, RECIPIENT, usdt('5'));

    expect(sent.result).toBe('SUCCESS');
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(recipientBefore + usdt('5'));
    expect(await chain.tokenBalance(USDT, hot)).toBe(usdtBefore - usdt('5'));
  });

  it('a frozen payer cannot pay (sandbox:pay REVERTs), while a frozen address still receives', async () => {
    await issuer.freeze(SANDBOX_PAYER);
    const before = await chain.tokenBalance(USDT, RECIPIENT);

    expect((await pay(chain, clock, RECIPIENT, usdt('3'))).result).toBe('REVERT');
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(before);

    await issuer.unfreeze(SANDBOX_PAYER);
    // Tether checks the sender only: a payment to a frozen address is mined and credited on chain.
    await issuer.freeze(RECIPIENT);
    expect((await pay(chain, clock, RECIPIENT, usdt('3'))).result).toBe('SUCCESS');
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(before + usdt('3'));
    await issuer.unfreeze(RECIPIENT);
  });

  it('pause: every transfer of the token REVERTs and tokenPaused says so; other tokens move; unpause: it goes', async () => {
    await issuer.pause();

    expect(await chain.tokenPaused(USDT)).toBe(true);
    expect(await chain.tokenPaused(LOOK_ALIKE)).toBe(false);
    const before = await chain.tokenBalance(USDT, RECIPIENT);
    expect((await send(chain, clock, hotWallet, RECIPIENT, usdt('1'))).result).toBe('REVERT');
    expect((await pay(chain, clock, RECIPIENT, usdt('1'))).result).toBe('REVERT');
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(before);
    expect((await pay(chain, clock, RECIPIENT, usdt('1'), LOOK_ALIKE)).result).toBe('SUCCESS');

    await issuer.unpause();
    expect(await chain.tokenPaused(USDT)).toBe(false);
    expect((await send(chain, clock, hotWallet, RECIPIENT, usdt('1'))).result).toBe('SUCCESS');
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(before + usdt('1'));
  });

  it('fee at 10 bp: the recipient gets value − fee, the issuer the fee, and transfers() returns both Transfer events', async () => {
    await issuer.setFee(10, usdt('50'));
    const hot = await hotWallet.address();
    const [hotBefore, recipientBefore, issuerBefore] = [await chain.tokenBalance(USDT, hot), await chain.tokenBalance(USDT, RECIPIENT), await chain.tokenBalance(USDT, SANDBOX_ISSUER)];

    const sent = await send(chain, clock, hotWallet, RECIPIENT, usdt('100'));

    expect(sent.result).toBe('SUCCESS');
    expect(await chain.tokenBalance(USDT, hot)).toBe(hotBefore - usdt('100'));
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(recipientBefore + usdt('99.9'));
    expect(await chain.tokenBalance(USDT, SANDBOX_ISSUER)).toBe(issuerBefore + usdt('0.1'));
    // As TetherToken emits them: Transfer(from, owner, fee), then Transfer(from, to, value - fee).
    expect(await chain.transfers(USDT, sent.blockNumber, sent.blockNumber)).toEqual([
      { txHash: sent.txHash, eventIndex: 0, blockNumber: sent.blockNumber, contract: USDT, from: hot, to: SANDBOX_ISSUER, amount: usdt('0.1') },
      { txHash: sent.txHash, eventIndex: 1, blockNumber: sent.blockNumber, contract: USDT, from: hot, to: RECIPIENT, amount: usdt('99.9') },
    ]);

    // A fork that drops it takes both events and every balance it moved.
    await chain.dropTransaction(sent.txHash);
    expect(await chain.transfers(USDT, sent.blockNumber, sent.blockNumber)).toEqual([]);
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(recipientBefore);
    expect(await chain.tokenBalance(USDT, SANDBOX_ISSUER)).toBe(issuerBefore);
    expect(await chain.tokenBalance(USDT, hot)).toBe(hotBefore);
  });

  it('the fee stops at the maximum, applies to payments from outside, and 0 bp charges nothing', async () => {
    await issuer.setFee(10, usdt('0.05'));
    const issuerBefore = await chain.tokenBalance(USDT, SANDBOX_ISSUER);
    const recipientBefore = await chain.tokenBalance(USDT, RECIPIENT);

    const paid = await pay(chain, clock, RECIPIENT, usdt('100'));

    expect(paid.result).toBe('SUCCESS');
    expect((await chain.transfers(USDT, paid.blockNumber, paid.blockNumber)).map(({ to, amount }) => [to, amount])).toEqual([
      [SANDBOX_ISSUER, usdt('0.05')],
      [RECIPIENT, usdt('99.95')],
    ]);
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(recipientBefore + usdt('99.95'));
    expect(await chain.tokenBalance(USDT, SANDBOX_ISSUER)).toBe(issuerBefore + usdt('0.05'));

    await issuer.setFee(0, usdt('50'));
    const free = await pay(chain, clock, RECIPIENT, usdt('100'));
    expect((await chain.transfers(USDT, free.blockNumber, free.blockNumber)).map(({ to, amount }) => [to, amount])).toEqual([[RECIPIENT, usdt('100')]]);
  });

  it('a reverted transfer under a fee moves no token and charges no fee', async () => {
    await issuer.setFee(10, usdt('50'));
    await issuer.pause();
    const issuerBefore = await chain.tokenBalance(USDT, SANDBOX_ISSUER);

    const reverted = await send(chain, clock, hotWallet, RECIPIENT, usdt('10'));

    expect(reverted.result).toBe('REVERT');
    expect(await chain.tokenBalance(USDT, SANDBOX_ISSUER)).toBe(issuerBefore);
  });

  it('the issuer refuses arguments Tether’s contract would not take, writing nothing', async () => {
    await expect(issuer.setFee(21, 0n)).rejects.toThrow(RangeError);
    await expect(issuer.setFee(-1, 0n)).rejects.toThrow(RangeError);
    await expect(issuer.setFee(1.5, 0n)).rejects.toThrow(RangeError);
    await expect(issuer.setFee(10, -1n)).rejects.toThrow(RangeError);
    await expect(issuer.freeze('0x00000000000000000000000000000000000000aa')).rejects.toThrow(RangeError);
    await expect(issuer.freeze('41a614f803b6fd780986a42c78ec9c7f77e6ded13c')).rejects.toThrow(RangeError);

    const paid = await pay(chain, clock, RECIPIENT, usdt('1'));
    expect(await chain.transfers(USDT, paid.blockNumber, paid.blockNumber)).toHaveLength(1);
  });

  it('TRX moves whatever the token’s issuer does', async () => {
    await issuer.pause();
    await issuer.freeze(OTHER);
    const paid = await chain.submitTransfer({ contract: SANDBOX_TRX, from: OTHER, to: RECIPIENT, amount: 1_000_000n });
    clock.advanceBlocks(1);
    expect((await chain.receipt(paid.txHash))?.result).toBe('SUCCESS');
    await issuer.unfreeze(OTHER);
  });
});

describe('deprecation on the sandbox chain', () => {
  const { clock, hotWallet, chain, issuer } = sandboxWithIssuer('2026-12-02T00:00:00.000Z');

  it('before it, the upgraded contract does not exist: a transfer through it is refused', async () => {
    await expect(send(chain, clock, hotWallet, RECIPIENT, usdt('1'), SANDBOX_UPGRADED_USDT)).rejects.toThrow(BroadcastRefused);
    await expect(pay(chain, clock, RECIPIENT, usdt('1'), SANDBOX_UPGRADED_USDT)).rejects.toThrow(/CONTRACT_VALIDATE_ERROR/);
  });

  it('after it, a transfer through the old contract moves the same balances and is reported by transfers(upgraded)', async () => {
    expect(await issuer.deprecate()).toEqual({ upgradedContract: SANDBOX_UPGRADED_USDT });
    const before = await chain.tokenBalance(USDT, RECIPIENT);

    const paid = await pay(chain, clock, RECIPIENT, usdt('7'));

    expect(paid.result).toBe('SUCCESS');
    expect(await chain.transfers(SANDBOX_UPGRADED_USDT, paid.blockNumber, paid.blockNumber)).toEqual([
      { txHash: paid.txHash, eventIndex: 0, blockNumber: paid.blockNumber, contract: SANDBOX_UPGRADED_USDT, from: SANDBOX_PAYER, to: RECIPIENT, amount: usdt('7') },
    ]);
    // Tether's legacy contract forwards: the old address emits nothing any more.
    expect(await chain.transfers(USDT, paid.blockNumber, paid.blockNumber)).toEqual([]);
    expect(await chain.tokenBalance(USDT, RECIPIENT)).toBe(before + usdt('7'));
    expect(await chain.tokenBalance(SANDBOX_UPGRADED_USDT, RECIPIENT)).toBe(before + usdt('7'));
    expect(await chain.tokenBalances(SANDBOX_UPGRADED_USDT, [RECIPIENT])).toEqual(await chain.tokenBalances(USDT, [RECIPIENT]));
  });

  it('a transfer straight through the upgraded contract moves the balance the old one funded', async () => {
    const hot = await hotWallet.address();
    const hotBefore = await chain.tokenBalance(USDT, hot);

    const sent = await send(chain, clock, hotWallet, RECIPIENT, usdt('4'), SANDBOX_UPGRADED_USDT);

    expect(sent.result).toBe('SUCCESS');
    expect(await chain.tokenBalance(SANDBOX_UPGRADED_USDT, hot)).toBe(hotBefore - usdt('4'));
    expect((await chain.transfers(SANDBOX_UPGRADED_USDT, sent.blockNumber, sent.blockNumber)).map(({ from, to, amount }) => [from, to, amount])).toEqual([[hot, RECIPIENT, usdt('4')]]);
  });

  it('frozenAmong and tokenPaused answer alike through either contract; a fee is the upgraded contract’s events too', async () => {
    const hot = await hotWallet.address();
    await issuer.freeze(hot);
    await issuer.pause();
    for (const contract of [USDT, SANDBOX_UPGRADED_USDT]) {
      expect(await chain.frozenAmong(contract, [hot, RECIPIENT])).toEqual(new Set([hot]));
      expect(await chain.tokenPaused(contract)).toBe(true);
    }
    expect((await send(chain, clock, hotWallet, RECIPIENT, usdt('1'), SANDBOX_UPGRADED_USDT)).result).toBe('REVERT');
    await liftEverything(issuer, [hot]);

    await issuer.setFee(10, usdt('50'));
    const sent = await send(chain, clock, hotWallet, RECIPIENT, usdt('10'));
    expect((await chain.transfers(SANDBOX_UPGRADED_USDT, sent.blockNumber, sent.blockNumber)).map(({ eventIndex, to, amount }) => [eventIndex, to, amount])).toEqual([
      [0, SANDBOX_ISSUER, usdt('0.01')],
      [1, RECIPIENT, usdt('9.99')],
    ]);
  });
});
