import { createSolanaRpc, generateKeyPairSigner, type Address, type KeyPairSigner, type Signature } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { getInitializeAccount3Instruction, getTokenSize, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { base58 } from '@scure/base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxPaymentReverted, SandboxWalletShort } from '#functions/networks/network';
import type { ChainReader, RecipientFilter } from '#functions/networks/chain';
import { solanaChainOf, solanaChains } from '#functions/networks/solana/from-settings';
import { SolanaBlockhashNotFound, SolanaRpcChain, SolanaTransactionRefused } from '#functions/networks/solana/rpc-chain';
import { SOLANA_SANDBOX_CUSTOMER, solanaSandbox } from '#functions/networks/solana/sandbox-payer';
import { TOKEN_ACCOUNT_BYTES } from '#functions/networks/solana/chain';
import {
  FINALITY_DEPTH,
  fundSolana,
  sendSolanaTransaction,
  signedSolanaTransaction,
  startFaultySolanaProxy,
  usdtAccountOf,
  usdtPaymentInstructions,
  useSolanaNode,
  type FaultySolanaProxy,
} from '../support/solana.ts';

/**
 * Solana's chain adapter (functions/networks/solana/rpc-chain.ts) against the local node
 * (local/solana-node.ts: the real runtime and SPL Token program behind JSON-RPC over a real socket),
 * as the jobs connect it from the stage's SOLANA (from-settings.ts). Slots move only when a test
 * moves them, so finality and expiry are exact. Also the sandbox payer (sandbox-payer.ts), which the
 * dashboard's simulator and `npm run sandbox:pay` pay through.
 */
const solana = useSolanaNode();
const node = () => solana.node;
let chain: SolanaRpcChain;

const usdt = (whole: number): bigint => BigInt(whole) * 1_000_000n;
const wallet = async (): Promise<Address> => (await generateKeyPairSigner()).address;
const slotNow = () => Number(node().slot('confirmed'));
const customer = () => node().customer.signer;

/** The customer pays `to` as a wallet does; the signature and the slot it landed in. */
async function pay(payer: KeyPairSigner, to: Address, amount: bigint, options: { skipPreflight?: boolean } = {}): Promise<{ signature: Signature; slot: number }> {
  const signature = await sendSolanaTransaction(node(), payer, await usdtPaymentInstructions(node(), payer, to, amount), options);
  return { signature, slot: slotNow() };
}

/** Where a transaction's account is among its accounts, as token balances count them. */
async function accountIndexOf(signature: Signature, account: Address): Promise<number> {
  const found = await createSolanaRpc(node().url).getTransaction(signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
  return found!.transaction.message.accountKeys.indexOf(account);
}

beforeAll(() => {
  chain = solanaChainOf(solana.chainSettings());
});

describe("Solana's chain: transfers", () => {
  it("reports each USDT rise of an owner's associated token account in the slots asked, to the owner, with the exact amount, its payer, and no failed transaction nor non-associated account", async () => {
    const mint = node().mint;
    const from = slotNow() + 1;
    node().advanceSlots(1);
    const payee = await wallet();

    // A customer's payment that creates the payee's associated token account.
    const first = await pay(customer(), payee, 5_250_001n);
    node().advanceSlots(1);

    // Another payer pays the same owner: its USDT falls, so it is the transfer's `from`.
    const other = await generateKeyPairSigner();
    const [, minted] = await fundSolana(node(), other.address, { lamports: 1_000_000_000n, usdt: usdt(20) });
    const mintedSlot = slotNow();
    node().advanceSlots(1);
    const second = await pay(other, payee, usdt(7));
    node().advanceSlots(1);

    // USDT into a token account the owner holds that is not its associated one: not reported.
    const elsewhere = await wallet();
    const auxiliary = await generateKeyPairSigner();
    const rent = await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES);
    const toAuxiliary = await sendSolanaTransaction(node(), customer(), [
      getCreateAccountInstruction({ payer: customer(), newAccount: auxiliary, lamports: rent, space: getTokenSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeAccount3Instruction({ account: auxiliary.address, mint, owner: elsewhere }),
      getTransferCheckedInstruction({ source: node().customer.usdtAccount, mint, destination: auxiliary.address, authority: customer(), amount: usdt(2), decimals: 6 }),
    ]);
    expect(toAuxiliary).toBeTruthy();
    node().advanceSlots(1);

    // A payment that lands failed (the payee's account frozen; sent without preflight): no USDT moved.
    const frozenPayee = await wallet();
    await node().issuer.mintTo(frozenPayee, 1n);
    const frozenMintSlot = slotNow();
    await node().issuer.freeze(await usdtAccountOf(frozenPayee));
    node().advanceSlots(1);
    const failed = await pay(customer(), frozenPayee, usdt(3), { skipPreflight: true });
    expect((await chain.receipt(failed.signature))?.result).toBe('InstructionError:1:Custom:17');
    const to = slotNow();

    const payeeAccount = await usdtAccountOf(payee);
    const transfers = await chain.transfers(mint, from, to);
    expect(transfers).toEqual([
      { txHash: first.signature, eventIndex: await accountIndexOf(first.signature, payeeAccount), blockNumber: first.slot, contract: mint, from: node().customer.address, to: payee, amount: 5_250_001n },
      // USDT the issuer minted: no owner's fell, so its first signer paid it.
      { txHash: minted, eventIndex: await accountIndexOf(minted!, await usdtAccountOf(other.address)), blockNumber: mintedSlot, contract: mint, from: node().issuer.address, to: other.address, amount: usdt(20) },
      { txHash: second.signature, eventIndex: await accountIndexOf(second.signature, payeeAccount), blockNumber: second.slot, contract: mint, from: other.address, to: payee, amount: usdt(7) },
      { txHash: expect.any(String), eventIndex: expect.any(Number), blockNumber: frozenMintSlot, contract: mint, from: node().issuer.address, to: frozenPayee, amount: 1n },
    ]);

    // Each transfer is in the slot range that holds it alone.
    expect((await chain.transfers(mint, first.slot, first.slot)).map((transfer) => transfer.txHash)).toEqual([first.signature]);
    expect(await chain.transfers(mint, first.slot + 1, mintedSlot - 1)).toEqual([]);
    // Another mint's transfers are not USDT's.
    expect(await chain.transfers(await wallet(), from, to)).toEqual([]);
  });

  it('asks the recipient filter after reading the blocks and leaves out the owners it does not want', async () => {
    const wanted = await wallet();
    const stranger = await wallet();
    const from = slotNow() + 1;
    node().advanceSlots(1);
    await pay(customer(), wanted, usdt(1));
    await pay(customer(), stranger, usdt(1));
    const calls: string[] = [];
    const recipients: RecipientFilter = {
      afterRead: async () => {
        calls.push('afterRead');
      },
      mayWant: (owner) => {
        calls.push('mayWant');
        return owner === wanted;
      },
    };
    const transfers = await chain.transfers(node().mint, from, slotNow(), recipients);
    expect(transfers.map((transfer) => [transfer.to, transfer.amount])).toEqual([[wanted, usdt(1)]]);
    expect(calls[0]).toBe('afterRead');
    expect(calls.filter((call) => call === 'afterRead')).toHaveLength(1);
  });
});

describe("Solana's chain: blocks and receipts", () => {
  it("gives the confirmed slot as the newest block and the finalized slot as the final one, with blockhash and time", async () => {
    const [latest, final] = await Promise.all([chain.latestBlock(), chain.finalBlock()]);
    expect(latest.number).toBe(slotNow());
    expect(final.number).toBe(Number(node().slot('finalized')));
    expect(latest.number - final.number).toBe(FINALITY_DEPTH);
    expect(base58.decode(latest.hash)).toHaveLength(32);
    expect(new Date(latest.timestamp).toISOString()).toBe(latest.timestamp);
    // No block hashes to tell a reorganisation by: the scanner re-reads a fixed overlap.
    const reader: ChainReader = chain;
    expect(reader.finalityDepth).toBeUndefined();
    expect(reader.blockAt).toBeUndefined();
  });

  it('answers a receipt at confirmed at once and the final receipt only once its slot is finalized; null for a signature no one knows', async () => {
    const payee = await wallet();
    const { signature, slot } = await pay(customer(), payee, usdt(4));
    const receipt = await chain.receipt(signature);
    expect(receipt).toEqual({
      txHash: signature,
      blockNumber: slot,
      result: 'SUCCESS',
      tokenTransfers: [{ contract: node().mint, to: payee, toAccount: await usdtAccountOf(payee), amount: usdt(4), from: node().customer.address, eventIndex: await accountIndexOf(signature, await usdtAccountOf(payee)), toAccountCreated: true }],
      // The payer signed alone and created the payee's token account: one signature's fee and the rent.
      feePayerCost: { asset: 'SOL', decimals: 9, amount: 5_000n + (await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES)) },
    });
    expect(await chain.finalReceipt(signature)).toBeNull();
    node().advanceSlots(FINALITY_DEPTH - 1);
    expect(await chain.finalReceipt(signature)).toBeNull();
    node().advanceSlots(1);
    expect(await chain.finalReceipt(signature)).toEqual(receipt);

    const unknown = base58.encode(new Uint8Array(64).fill(7));
    expect(await chain.receipt(unknown)).toBeNull();
    expect(await chain.finalReceipt(unknown)).toBeNull();
  });

  it("gives a failed transaction's error as its result, and no token transfers", async () => {
    const payee = await wallet();
    await node().issuer.mintTo(payee, 1n);
    await node().issuer.freeze(await usdtAccountOf(payee));
    const { signature } = await pay(customer(), payee, usdt(1), { skipPreflight: true });
    expect(await chain.receipt(signature)).toMatchObject({ txHash: signature, result: 'InstructionError:1:Custom:17', tokenTransfers: [] });
  });
});

describe("Solana's chain: broadcasting", () => {
  it("accepts a signed transaction once and answers 'duplicate' when it is sent again; it lands once", async () => {
    const payee = await wallet();
    const signed = await signedSolanaTransaction(node(), customer(), await usdtPaymentInstructions(node(), customer(), payee, usdt(3)));
    expect(await chain.broadcast({ wire: signed.wire })).toBe('accepted');
    expect(await chain.broadcast({ wire: signed.wire })).toBe('duplicate');
    expect(await chain.tokenBalance(node().mint, payee)).toBe(usdt(3));
    expect((await chain.receipt(signed.signature))?.result).toBe('SUCCESS');
  });

  it('refuses a transaction whose blockhash expired with SolanaBlockhashNotFound, and one whose program fails with SolanaTransactionRefused and its error', async () => {
    const payee = await wallet();
    const signed = await signedSolanaTransaction(node(), customer(), await usdtPaymentInstructions(node(), customer(), payee, usdt(1)));
    node().advanceSlots(151);
    await expect(chain.broadcast({ wire: signed.wire })).rejects.toThrow(SolanaBlockhashNotFound);
    await expect(chain.broadcast({ wire: signed.wire })).rejects.toThrow(/Blockhash not found/);

    await node().issuer.mintTo(payee, 1n);
    await node().issuer.freeze(await usdtAccountOf(payee));
    const refused = await signedSolanaTransaction(node(), customer(), await usdtPaymentInstructions(node(), customer(), payee, usdt(1)));
    const error = await chain.broadcast({ wire: refused.wire }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SolanaTransactionRefused);
    expect((error as SolanaTransactionRefused).reason).toBe('InstructionError:1:Custom:17');
    expect(await chain.receipt(refused.signature)).toBeNull();
    await expect(chain.broadcast({ transaction: 'not a wire' })).rejects.toThrow(/wire/);
  });
});

describe("Solana's chain: balances and the issuer's controls", () => {
  it("reads owners' USDT from their associated token accounts (0 where there is none), SOL in lamports, and which owners are frozen", async () => {
    const mint = node().mint;
    const holder = await wallet();
    const frozen = await wallet();
    const none = await wallet();
    await fundSolana(node(), holder, { usdt: 12_345_678n });
    await fundSolana(node(), frozen, { usdt: usdt(1) });
    await node().issuer.freeze(await usdtAccountOf(frozen));
    // Lamports sent to where an owner's token account will be: the address holds SOL and no token account.
    const lamportsOnly = await wallet();
    await node().airdrop(await usdtAccountOf(lamportsOnly), 1_000_000n);

    expect(await chain.tokenBalance(mint, holder)).toBe(12_345_678n);
    expect(await chain.tokenBalances(mint, [holder, none, lamportsOnly])).toEqual(new Map([[holder, 12_345_678n], [none, 0n], [lamportsOnly, 0n]]));
    const { value: lamports } = await createSolanaRpc(node().url).getBalance(node().customer.address, { commitment: 'confirmed' }).send();
    expect(await chain.feeBalance(node().customer.address)).toBe(lamports);
    expect(await chain.feeBalance(none)).toBe(0n);

    expect(await chain.frozenAmong(mint, [holder, frozen, none, lamportsOnly])).toEqual(new Set([frozen]));
    await node().issuer.thaw(await usdtAccountOf(frozen));
    expect(await chain.frozenAmong(mint, [holder, frozen])).toEqual(new Set());
    expect(await chain.tokenPaused(mint)).toBe(false);

    const rent = await chain.rentExemptMinimum(TOKEN_ACCOUNT_BYTES);
    expect(rent).toBe(2_039_280n);
    const accounts = await chain.tokenAccounts(mint, [holder, none, lamportsOnly]);
    expect(accounts.get(holder)).toEqual({ address: await usdtAccountOf(holder), exists: true, amount: 12_345_678n, frozen: false, lamports: rent, delegate: null, delegatedAmount: 0n, closeAuthority: null });
    expect(accounts.get(none)).toEqual({ address: await usdtAccountOf(none), exists: false, amount: 0n, frozen: false, lamports: 0n, delegate: null, delegatedAmount: 0n, closeAuthority: null });
    expect(accounts.get(lamportsOnly)).toEqual({ address: await usdtAccountOf(lamportsOnly), exists: false, amount: 0n, frozen: false, lamports: 1_000_000n, delegate: null, delegatedAmount: 0n, closeAuthority: null });
  });

  it('reads more owners than one request holds, in pages', async () => {
    const owners = [...(await Promise.all(Array.from({ length: 230 }, () => wallet()))), node().customer.address];
    const balances = await chain.tokenBalances(node().mint, owners);
    expect(balances.size).toBe(owners.length);
    expect(balances.get(node().customer.address)).toBe(await chain.tokenBalance(node().mint, node().customer.address));
    expect([...balances.values()].filter((amount) => amount > 0n)).toHaveLength(1);
  });
});

describe("Solana's chain: what the sender reads", () => {
  it('gives the newest blockhash, block heights at confirmed and finalized, rent, and no priority fee where the node has no fee market', async () => {
    const { blockhash, lastValidBlockHeight } = await chain.latestBlockhash();
    const { value } = await createSolanaRpc(node().url).getLatestBlockhash({ commitment: 'confirmed' }).send();
    expect({ blockhash, lastValidBlockHeight }).toEqual({ blockhash: value.blockhash, lastValidBlockHeight: value.lastValidBlockHeight });
    const [confirmed, finalized] = await Promise.all([chain.blockHeight('confirmed'), chain.blockHeight('finalized')]);
    expect(confirmed - finalized).toBe(BigInt(FINALITY_DEPTH));
    expect(lastValidBlockHeight).toBe(confirmed + 150n);
    // The local node does not answer getRecentPrioritizationFees ("Method not found").
    expect(await chain.recentPriorityFee([node().mint])).toBe(0n);
  });

  it("gives signatures' statuses from the whole history, in pages of 256, null for those no node knows", async () => {
    const { signature, slot } = await pay(customer(), await wallet(), 1n);
    const unknown = Array.from({ length: 300 }, (_, i) => base58.encode(new Uint8Array(64).fill(i % 250 + 1)));
    const before = await chain.signatureStatuses([signature, ...unknown]);
    expect(before).toHaveLength(301);
    expect(before[0]).toEqual({ slot, err: null, confirmationStatus: 'confirmed' });
    expect(before.slice(1).every((status) => status === null)).toBe(true);
    // Past the node's status cache (300 slots), the history still knows it.
    node().advanceSlots(301);
    expect(await chain.signatureStatuses([signature])).toEqual([{ slot, err: null, confirmationStatus: 'finalized' }]);
  });
});

describe("Solana's chain: a faulty provider", () => {
  let proxy: FaultySolanaProxy;
  let faulty: SolanaRpcChain;
  beforeAll(async () => {
    proxy = await startFaultySolanaProxy(node().url);
    faulty = solanaChainOf(solana.chainSettings({ rpcUrl: proxy.url, rpcTimeoutMs: 500 }));
  });
  afterAll(() => proxy.stop());

  it('throws on an HTTP 429 or 500, a JSON-RPC error or a hang, never reading it as no transfers, no receipt or not frozen', async () => {
    const mint = node().mint;
    const payee = await wallet();
    const from = slotNow();
    const { signature } = await pay(customer(), payee, usdt(2));
    await node().issuer.freeze(await usdtAccountOf(payee));
    const to = slotNow();
    // As the direct chain reads it, through the proxy while it does not fault.
    expect((await faulty.transfers(mint, from, to)).map((transfer) => transfer.txHash)).toContain(signature);
    expect(await faulty.frozenAmong(mint, [payee])).toEqual(new Set([payee]));

    for (const fault of ['http429', 'http500', 'rpcError', 'hang'] as const) {
      // One block of the range fails: the read fails whole, not with the other blocks' transfers.
      proxy.set(fault, ['getBlock']);
      await expect(faulty.transfers(mint, from, to), fault).rejects.toThrow();
      proxy.set(fault, ['getMultipleAccounts']);
      await expect(faulty.frozenAmong(mint, [payee]), fault).rejects.toThrow();
      await expect(faulty.tokenBalances(mint, [payee]), fault).rejects.toThrow();
      proxy.set(fault, ['getTransaction']);
      await expect(faulty.receipt(signature), fault).rejects.toThrow();
      await expect(faulty.finalReceipt(signature), fault).rejects.toThrow();
      proxy.set(fault, ['getSignatureStatuses']);
      await expect(faulty.signatureStatuses([signature]), fault).rejects.toThrow();
      proxy.set(fault, ['getRecentPrioritizationFees']);
      await expect(faulty.recentPriorityFee([mint]), fault).rejects.toThrow();
      proxy.set(fault, ['sendTransaction']);
      const signed = await signedSolanaTransaction(node(), customer(), await usdtPaymentInstructions(node(), customer(), await wallet(), 1n));
      await expect(faulty.broadcast({ wire: signed.wire }), fault).rejects.toThrow();
      proxy.set(fault);
      await expect(faulty.latestBlock(), fault).rejects.toThrow();
      await expect(faulty.feeBalance(payee), fault).rejects.toThrow();
    }
    expect(proxy.faulted.getBlock).toBe(4);
    proxy.set(null);
    expect(await faulty.frozenAmong(mint, [payee])).toEqual(new Set([payee]));
  });
});

describe("Solana's chain for the port and reconciliation", () => {
  it("connects from the stage's SOLANA with the mint as USDT's contract and one cursor, and reconciles owners' USDT and the hot wallet's SOL", async () => {
    const settings = solana.chainSettings();
    const connected = solanaChains.connect({} as never, 'unused', settings);
    expect(connected.settings).toEqual({ usdtContract: node().mint, cursorName: 'solana', enforcesBalances: true, readsAllBalancesAtOnce: false });
    const holder = await wallet();
    await fundSolana(node(), holder, { lamports: 5_000_000n, usdt: usdt(9) });
    const sources = solanaChains.reconcileSources({} as never, 'unused', settings, async () => holder);
    expect(sources.network).toBe('solana');
    expect(sources.readsAllBalancesAtOnce).toBe(false);
    expect(await sources.usdtBalances([holder, await wallet()])).toEqual(new Map([[holder, usdt(9)], [expect.any(String), 0n]]));
    expect(await sources.gasBalance!(holder)).toBe(5_000_000n);
    // Every Solana deposit address Cambio made is read, not only those the ledger lists: USDT paid to
    // one the deposits never recorded is reported unexplained. TRON's and EVM's are other networks'.
    expect(sources.readsEveryDepositAddressOf?.(holder)).toBe(true);
    expect(sources.readsEveryDepositAddressOf?.('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
    expect(sources.readsEveryDepositAddressOf?.('0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBe(false);
  });
});

describe('the Solana sandbox payer', () => {
  it("pays an owner from the local customer wallet, creating its token account, as the scanner then reads it, two equal payments in one slot twice; refuses what the wallet cannot cover and what the token refuses", async () => {
    expect(SOLANA_SANDBOX_CUSTOMER).toBe(node().customer.address);
    expect(solanaSandbox.payer({} as never, 'unused', solana.chainSettings({ sandbox: false }))).toBeNull();
    const payer = solanaSandbox.payer({} as never, 'unused', solana.chainSettings())!;
    const payee = await wallet();
    node().advanceSlots(1);
    const from = slotNow();

    const { txHash } = await payer.pay(payee, 5_000_000n, { companyId: 'company-1' });
    const again = await payer.pay(payee, 2_500_000n, { companyId: 'company-2' });
    // The same payment again on the same blockhash (slots move only when the test moves them): a
    // transaction of its own, not the first one repeated.
    const twin = await payer.pay(payee, 2_500_000n, { companyId: 'company-2' });
    expect(twin.txHash).not.toBe(again.txHash);
    expect(await chain.tokenBalance(node().mint, payee)).toBe(10_000_000n);
    expect(await chain.receipt(txHash)).toMatchObject({ result: 'SUCCESS', tokenTransfers: [{ to: payee, amount: 5_000_000n, from: node().customer.address }] });
    expect((await chain.transfers(node().mint, from, slotNow())).map((transfer) => [transfer.txHash, transfer.to, transfer.amount])).toEqual([
      [txHash, payee, 5_000_000n],
      [again.txHash, payee, 2_500_000n],
      [twin.txHash, payee, 2_500_000n],
    ]);

    const held = await chain.tokenBalance(node().mint, node().customer.address);
    const short = await payer.pay(payee, held + 1n, { companyId: 'company-1' }).catch((thrown: unknown) => thrown);
    expect(short).toBeInstanceOf(SandboxWalletShort);
    expect(short).toMatchObject({ wallet: node().customer.address, held, asked: held + 1n });

    await node().issuer.freeze(await usdtAccountOf(payee));
    const refused = await payer.pay(payee, 1n, { companyId: 'company-1' }).catch((thrown: unknown) => thrown);
    expect(refused).toBeInstanceOf(SandboxPaymentReverted);
    expect(await chain.receipt((refused as SandboxPaymentReverted).txHash)).toBeNull();
    expect(await chain.tokenBalance(node().mint, payee)).toBe(10_000_000n);
  });
});
