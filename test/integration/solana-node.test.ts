import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED,
  SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND,
  type Address,
  type Blockhash,
  type Signature,
  type SolanaErrorCode,
} from '@solana/kit';
import { getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_ERROR__ACCOUNT_FROZEN, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { afterAll, describe, expect, it } from 'vitest';
import { FINALITY_DEPTH, startSolanaNode, usdtAccountOf, USDT_MINT, type SolanaNode } from '#local/solana-node';

/**
 * The local Solana node (local/solana-node.ts): litesvm behind a standard JSON-RPC endpoint, read
 * here as Cambio's adapter will read it, through @solana/kit's createSolanaRpc over a real socket.
 * Slots move only when a test moves them (slotIntervalMs: null), so finality and blockhash expiry
 * are exact.
 */
const nodes: SolanaNode[] = [];
const workDirs: string[] = [];

afterAll(async () => {
  await Promise.all(nodes.map((node) => node.close()));
  for (const dir of workDirs) rmSync(dir, { recursive: true, force: true });
});

async function started(options: Parameters<typeof startSolanaNode>[0] = {}): Promise<SolanaNode> {
  const node = await startSolanaNode({ slotIntervalMs: null, ...options });
  nodes.push(node);
  return node;
}

const rpcOf = (node: SolanaNode) => createSolanaRpc(node.url);
type Rpc = ReturnType<typeof rpcOf>;

const usdt = (whole: number): bigint => BigInt(whole) * 1_000_000n;

/**
 * What a wallet signs to pay USDT to an owner: the owner's associated token account created if
 * missing, then a transferChecked from the customer's. Signed now, sent when the test says.
 */
async function customerPayment(node: SolanaNode, rpc: Rpc, { to, amount, lifetime }: { to: Address; amount: bigint; lifetime?: { blockhash: Blockhash; lastValidBlockHeight: bigint } }) {
  const payer = node.customer.signer;
  const destination = await usdtAccountOf(to);
  const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
  return signTransactionMessageWithSigners(
    pipe(
      createTransactionMessage({ version: 0 }),
      (message) => setTransactionMessageFeePayerSigner(payer, message),
      (message) => setTransactionMessageLifetimeUsingBlockhash(lifetime ?? latest, message),
      (message) =>
        appendTransactionMessageInstructions(
          [
            getCreateAssociatedTokenIdempotentInstruction({ payer, ata: destination, owner: to, mint: node.mint }),
            getTransferCheckedInstruction({ source: node.customer.usdtAccount, mint: node.mint, destination, authority: payer, amount, decimals: node.usdtDecimals }),
          ],
          message,
        ),
    ),
  );
}

type SignedPayment = Awaited<ReturnType<typeof customerPayment>>;

const send = (rpc: Rpc, transaction: SignedPayment, { skipPreflight = false } = {}): Promise<Signature> =>
  rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: 'base64', skipPreflight }).send();

async function usdtHeld(rpc: Rpc, tokenAccount: Address, commitment: 'confirmed' | 'finalized' = 'confirmed'): Promise<bigint | null> {
  const { value } = await rpc.getMultipleAccounts([tokenAccount], { commitment, encoding: 'jsonParsed' }).send();
  const data = value[0]?.data;
  if (!data || Array.isArray(data)) return null;
  return BigInt((data.parsed.info as { tokenAmount: { amount: string } }).tokenAmount.amount);
}

/** The SolanaError a rejected call threw, and the one it names as its cause. */
async function refusal(call: Promise<unknown>): Promise<{ code: SolanaErrorCode; cause: unknown }> {
  const error = await call.then(
    () => expect.fail('the node accepted it'),
    (thrown: unknown) => thrown,
  );
  if (!isSolanaError(error)) throw error;
  return { code: error.context.__code, cause: error.cause };
}

describe('the local Solana node', () => {
  it("starts with USDT's mainnet mint (6 decimals, the local issuer as mint and freeze authority) and a customer holding USDT in its associated token account", async () => {
    const node = await started();
    const rpc = rpcOf(node);

    const { value: mint } = await rpc.getAccountInfo(USDT_MINT, { encoding: 'jsonParsed' }).send();
    expect(mint?.owner).toBe(TOKEN_PROGRAM_ADDRESS);
    expect(mint?.data).toMatchObject({
      program: 'spl-token',
      parsed: { type: 'mint', info: { decimals: 6, isInitialized: true, mintAuthority: node.issuer.address, freezeAuthority: node.issuer.address } },
    });

    const { value: balance } = await rpc.getTokenAccountBalance(node.customer.usdtAccount).send();
    expect(balance).toMatchObject({ amount: usdt(1_000_000).toString(), decimals: 6, uiAmountString: '1000000' });
    const { value: held } = await rpc.getTokenAccountsByOwner(node.customer.address, { mint: USDT_MINT }, { encoding: 'jsonParsed' }).send();
    expect(held.map(({ pubkey }) => pubkey)).toEqual([node.customer.usdtAccount]);
    expect((await rpc.getBalance(node.customer.address).send()).value).toBeGreaterThan(1_000_000_000n);
  });

  it("lands a USDT transfer to a new owner in the current slot's block, with the token balances before and after, and finalizes it only once the finality depth has passed", async () => {
    const node = await started();
    const rpc = rpcOf(node);
    const payee = (await generateKeyPairSigner()).address;
    const payeeAccount = await usdtAccountOf(payee);

    const signature = await send(rpc, await customerPayment(node, rpc, { to: payee, amount: usdt(25) }));

    const [status] = (await rpc.getSignatureStatuses([signature]).send()).value;
    expect(status).toMatchObject({ slot: node.slot(), err: null, confirmationStatus: 'confirmed' });
    const block = await rpc.getBlock(status!.slot, { commitment: 'confirmed', encoding: 'json', transactionDetails: 'full', maxSupportedTransactionVersion: 0, rewards: false }).send();
    const landed = block?.transactions.find(({ transaction }) => transaction.signatures[0] === signature);
    expect(landed?.meta?.err).toBeNull();
    const keys = landed!.transaction.message.accountKeys;
    const { preTokenBalances = [], postTokenBalances = [] } = landed!.meta!;
    const amountIn = (balances: typeof preTokenBalances, account: Address) => balances.find(({ accountIndex }) => keys[accountIndex] === account)?.uiTokenAmount.amount;
    expect(amountIn(preTokenBalances, payeeAccount), 'the payee had no token account before').toBeUndefined();
    expect(amountIn(postTokenBalances, payeeAccount)).toBe(usdt(25).toString());
    expect(amountIn(preTokenBalances, node.customer.usdtAccount)).toBe(usdt(1_000_000).toString());
    expect(amountIn(postTokenBalances, node.customer.usdtAccount)).toBe(usdt(999_975).toString());

    // Not final yet: a reader at `finalized` sees neither the transaction nor the payee's USDT.
    expect(await rpc.getTransaction(signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send()).toBeNull();
    expect(await usdtHeld(rpc, payeeAccount, 'finalized')).toBeNull();
    node.advanceSlots(FINALITY_DEPTH - 1);
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]?.confirmationStatus).toBe('confirmed');
    expect(await usdtHeld(rpc, payeeAccount, 'finalized')).toBeNull();

    node.advanceSlots(1);
    expect((await rpc.getSignatureStatuses([signature]).send()).value[0]).toMatchObject({ confirmationStatus: 'finalized', confirmations: null });
    expect((await rpc.getTransaction(signature, { commitment: 'finalized', encoding: 'json', maxSupportedTransactionVersion: 0 }).send())?.slot).toBe(status!.slot);
    expect(await usdtHeld(rpc, payeeAccount, 'finalized')).toBe(usdt(25));
    const history = await rpc.getSignaturesForAddress(payeeAccount, { commitment: 'finalized' }).send();
    expect(history.map((entry) => entry.signature)).toEqual([signature]);
  });

  it('accepts a transaction up to its last valid block height and refuses it after with "Blockhash not found", as mainnet does', async () => {
    const node = await started();
    const rpc = rpcOf(node);
    const payee = (await generateKeyPairSigner()).address;
    const { value: lifetime } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send();
    const atTheLimit = await customerPayment(node, rpc, { to: payee, amount: usdt(1), lifetime });
    const tooLate = await customerPayment(node, rpc, { to: payee, amount: usdt(2), lifetime });

    node.advanceSlots(Number(lifetime.lastValidBlockHeight - (await rpc.getBlockHeight({ commitment: 'confirmed' }).send())));
    await send(rpc, atTheLimit);
    node.advanceSlots(1);
    expect(await rpc.getBlockHeight({ commitment: 'confirmed' }).send()).toBe(lifetime.lastValidBlockHeight + 1n);

    const refused = await refusal(send(rpc, tooLate));
    expect(refused.code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE);
    expect(isSolanaError(refused.cause, SOLANA_ERROR__TRANSACTION_ERROR__BLOCKHASH_NOT_FOUND)).toBe(true);
    const raw = await fetch(node.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [getBase64EncodedWireTransaction(tooLate), { encoding: 'base64' }] }),
    });
    expect(((await raw.json()) as { error: unknown }).error).toMatchObject({ code: -32002, message: 'Transaction simulation failed: Blockhash not found', data: { err: 'BlockhashNotFound' } });
    expect((await rpc.isBlockhashValid(lifetime.blockhash, { commitment: 'confirmed' }).send()).value).toBe(false);

    // Without preflight a node answers the signature, and the transaction never lands.
    const dropped = await send(rpc, tooLate, { skipPreflight: true });
    expect(dropped).toBe(getSignatureFromTransaction(tooLate));
    expect((await rpc.getSignatureStatuses([dropped], { searchTransactionHistory: true }).send()).value).toEqual([null]);
    expect(await usdtHeld(rpc, await usdtAccountOf(payee))).toBe(usdt(1));
  });

  it('refuses a transfer from a token account the issuer froze (the Token program says so), and lets it through once thawed', async () => {
    const node = await started();
    const rpc = rpcOf(node);
    const payee = (await generateKeyPairSigner()).address;
    await node.issuer.freeze(node.customer.usdtAccount);
    const { value: frozen } = await rpc.getAccountInfo(node.customer.usdtAccount, { commitment: 'confirmed', encoding: 'jsonParsed' }).send();
    expect(frozen?.data).toMatchObject({ parsed: { info: { state: 'frozen' } } });

    const refused = await refusal(send(rpc, await customerPayment(node, rpc, { to: payee, amount: usdt(5) })));
    expect(refused.code).toBe(SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE);
    expect(isSolanaError(refused.cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM) && refused.cause.context.code).toBe(TOKEN_ERROR__ACCOUNT_FROZEN);

    // Sent without preflight it lands, failed: the fee is paid, no USDT moves.
    const solBefore = (await rpc.getBalance(node.customer.address, { commitment: 'confirmed' }).send()).value;
    const failed = await send(rpc, await customerPayment(node, rpc, { to: payee, amount: usdt(5) }), { skipPreflight: true });
    const landed = await rpc.getTransaction(failed, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }).send();
    // kit reads every integer of an answer as a bigint.
    expect(landed?.meta?.err).toEqual({ InstructionError: [1n, { Custom: BigInt(TOKEN_ERROR__ACCOUNT_FROZEN) }] });
    expect((await rpc.getBalance(node.customer.address, { commitment: 'confirmed' }).send()).value).toBe(solBefore - landed!.meta!.fee);
    expect(await usdtHeld(rpc, node.customer.usdtAccount)).toBe(usdt(1_000_000));

    await node.issuer.thaw(node.customer.usdtAccount);
    await send(rpc, await customerPayment(node, rpc, { to: payee, amount: usdt(6) }));
    expect(await usdtHeld(rpc, await usdtAccountOf(payee))).toBe(usdt(6));
  });

  it('keeps its chain in the state file: started again it goes on from the slot it stood at, with the same balances and transactions, and a transaction it landed cannot land twice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cambio-solana-node-'));
    workDirs.push(dir);
    const stateFile = join(dir, 'solana', 'chain.json');
    const first = await started({ stateFile });
    expect(first.restored).toBe(false);
    const payee = (await generateKeyPairSigner()).address;
    const payment = await customerPayment(first, rpcOf(first), { to: payee, amount: usdt(40) });
    const signature = await send(rpcOf(first), payment);
    first.advanceSlots(3);
    const slotBefore = first.slot();
    await first.close();

    const second = await started({ stateFile });
    const rpc = rpcOf(second);
    expect(second.restored).toBe(true);
    expect(second.slot()).toBeGreaterThan(slotBefore);
    expect(await usdtHeld(rpc, await usdtAccountOf(payee))).toBe(usdt(40));
    expect(await usdtHeld(rpc, second.customer.usdtAccount)).toBe(usdt(1_000_000 - 40));
    expect((await rpc.getTransaction(signature, { commitment: 'confirmed', encoding: 'json', maxSupportedTransactionVersion: 0 }).send())?.meta?.err).toBeNull();

    const again = await refusal(send(rpc, payment));
    expect(isSolanaError(again.cause, SOLANA_ERROR__TRANSACTION_ERROR__ALREADY_PROCESSED)).toBe(true);
    await send(rpc, await customerPayment(second, rpc, { to: payee, amount: usdt(2) }));
    expect(await usdtHeld(rpc, await usdtAccountOf(payee))).toBe(usdt(42));
  });

  it('starts afresh when the state file does not exist, and refuses to start on one it cannot read, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cambio-solana-node-'));
    workDirs.push(dir);
    const node = await started({ stateFile: join(dir, 'missing.json') });
    expect(node.restored).toBe(false);
    expect(await usdtHeld(rpcOf(node), node.customer.usdtAccount)).toBe(usdt(1_000_000));

    const damaged = join(dir, 'damaged.json');
    writeFileSync(damaged, '{"format": "cambio-local-solana/1", "svm": ');
    await expect(startSolanaNode({ stateFile: damaged, slotIntervalMs: null })).rejects.toThrow(`The Solana chain saved in ${damaged} cannot be used`);
  });

  it('moves its slots on a timer, with finalized the finality depth behind, and answers an unknown method with -32601', async () => {
    const node = await started({ slotIntervalMs: 20, finalityDepth: 3 });
    const rpc = rpcOf(node);
    const first = await rpc.getSlot({ commitment: 'confirmed' }).send();
    await expect.poll(() => rpc.getSlot({ commitment: 'confirmed' }).send()).toBeGreaterThan(first + 2n);
    const finalized = await rpc.getSlot({ commitment: 'finalized' }).send();
    const confirmed = await rpc.getSlot({ commitment: 'confirmed' }).send();
    expect(confirmed - finalized).toBeGreaterThanOrEqual(3n);

    const response = await fetch(node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'getNothing', params: [] }) });
    expect(await response.json()).toEqual({ jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id: 7 });
  });
});
