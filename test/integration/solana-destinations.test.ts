import { generateKeyPairSigner, type Address } from '@solana/kit';
import { getCreateAccountInstruction } from '@solana-program/system';
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getInitializeAccount3Instruction, getInitializeMint2Instruction, getMintSize, getTokenSize, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { describe, expect, it } from 'vitest';
import { solanaDestinations } from '#functions/networks/solana/destinations';
import { associatedTokenAddress } from '#functions/networks/solana/address';
import { destinationChecksOf } from '#functions/networks/destination-registry';
import { refuseCambioDestination } from '#functions/withdrawals/refused-destinations';
import { ApiError } from '#functions/shared/errors';
import { fundSolana, sendSolanaTransaction, startFaultySolanaProxy, useSolanaNode, usdtAccountOf } from '../support/solana.ts';

/**
 * What a Solana destination is, read on the real runtime (the local node: litesvm behind JSON-RPC)
 * before a withdrawal, a split or an allowlist entry takes it (functions/networks/solana/destinations.ts):
 * a wallet, or USDT's associated token account of a known owner, paid into as it is; anything else
 * refused 400 VALIDATION_FAILED, a token account made at a key's address (on the curve, as a
 * wallet is) among them; a node that cannot answer makes it 503, never a guess.
 */
const solana = useSolanaNode();
const node = () => solana.node;
const customer = () => node().customer.signer;
const check = (address: string, settings = solana.settings()) => solanaDestinations.checkerFor({ SOLANA: settings } as never)!(address);
const refusedFor = (reason: RegExp) => ({ accepted: false, reason: expect.stringMatching(reason) });

describe("Solana destinations read on the chain", () => {
  it("derives an owner's associated token account as @solana-program/token does (the API's derivation, without kit)", async () => {
    for (let i = 0; i < 20; i++) {
      const owner = (await generateKeyPairSigner()).address;
      const mint = i % 2 === 0 ? node().mint : (await generateKeyPairSigner()).address;
      const [expected] = await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
      expect(associatedTokenAddress(owner, mint)).toBe(expected);
    }
  });

  it('takes a wallet, with SOL or with no account yet, as itself', async () => {
    const fresh = (await generateKeyPairSigner()).address;
    expect(await check(fresh)).toEqual({ accepted: true, owner: fresh });
    const funded = (await generateKeyPairSigner()).address;
    await fundSolana(node(), funded, { lamports: 1_000_000n });
    expect(await check(funded)).toEqual({ accepted: true, owner: funded });
  });

  it("takes USDT's associated token account of a wallet, naming its owner; refuses it frozen", async () => {
    const owner = (await generateKeyPairSigner()).address;
    await fundSolana(node(), owner, { usdt: 1_000_000n });
    const account = await usdtAccountOf(owner);
    expect(await check(account)).toEqual({ accepted: true, owner });
    await node().issuer.freeze(account);
    expect(await check(account)).toEqual(refusedFor(/frozen/));
    await node().issuer.thaw(account);
  });

  it("refuses a USDT token account made at a key's address (on the curve, as a wallet is): paid as a wallet, USDT would go to an account no one holds", async () => {
    const owner = (await generateKeyPairSigner()).address;
    const account = await generateKeyPairSigner();
    await sendSolanaTransaction(node(), customer(), [
      getCreateAccountInstruction({ payer: customer(), newAccount: account, lamports: 2_039_280n, space: getTokenSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeAccount3Instruction({ account: account.address, mint: node().mint, owner: owner as Address }),
    ]);
    expect(await check(account.address)).toEqual(refusedFor(/not its owner's associated one/));
  });

  it("refuses another token's account, a mint, and an address off the curve with no account", async () => {
    const otherMint = await generateKeyPairSigner();
    const owner = (await generateKeyPairSigner()).address as Address;
    const [otherAccount] = await findAssociatedTokenPda({ owner, mint: otherMint.address, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    await sendSolanaTransaction(node(), customer(), [
      getCreateAccountInstruction({ payer: customer(), newAccount: otherMint, lamports: 1_461_600n, space: getMintSize(), programAddress: TOKEN_PROGRAM_ADDRESS }),
      getInitializeMint2Instruction({ mint: otherMint.address, decimals: 6, mintAuthority: customer().address }),
      getCreateAssociatedTokenIdempotentInstruction({ payer: customer(), ata: otherAccount, owner, mint: otherMint.address }),
    ]);
    expect(await check(otherAccount)).toEqual(refusedFor(/another token than USDT/));
    expect(await check(otherMint.address)).toEqual(refusedFor(/an account of a program/));
    // The associated token account of a wallet that has none: off the curve, and nothing there yet.
    const [unmade] = await findAssociatedTokenPda({ owner: (await generateKeyPairSigner()).address, mint: node().mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect(await check(unmade)).toEqual(refusedFor(/off the Ed25519 curve/));
  });

  it('makes every way money leaves refuse what is refused (400 VALIDATION_FAILED naming the field), and checks the owner of an accepted account as any destination: the hot wallet\'s token account is Cambio\'s', async () => {
    const destinations = destinationChecksOf({ SOLANA: solana.settings() } as never);
    const hot = (await generateKeyPairSigner()).address;
    await fundSolana(node(), hot, { usdt: 1n });
    const cambio = { holdingsAt: async (forms: string[]) => (forms.includes(hot) ? [{ role: 'hot_wallet' as const, network: 'solana' as const }] : []) };
    const refusal = (address: string, deps: Parameters<typeof refuseCambioDestination>[0]) =>
      refuseCambioDestination(deps, { network: 'solana', address, field: 'split.address' }).then(() => null, (error: ApiError) => ({ code: error.code, details: error.details }));
    const [unmade] = await findAssociatedTokenPda({ owner: (await generateKeyPairSigner()).address, mint: node().mint, tokenProgram: TOKEN_PROGRAM_ADDRESS });
    expect(await refusal(unmade, { addresses: cambio, contracts: () => [], destinations })).toEqual({ code: 'VALIDATION_FAILED', details: [{ path: 'split.address', message: expect.stringMatching(/off the Ed25519 curve/) }] });
    expect(await refusal(await usdtAccountOf(hot), { addresses: cambio, contracts: () => [], destinations })).toMatchObject({ code: 'ADDRESS_NOT_ALLOWED', details: { reason: 'cambio_address' } });
    // Where the stage cannot read Solana, an address off the curve is refused unread; a wallet is taken by its form.
    expect(await refusal(unmade, { addresses: cambio, contracts: () => [] })).toMatchObject({ code: 'VALIDATION_FAILED' });
    expect(await refusal((await generateKeyPairSigner()).address, { addresses: cambio, contracts: () => [] })).toBeNull();
  });

  it('answers 503 NETWORK_UNAVAILABLE when the node errs or hangs, never a guess', async () => {
    const proxy = await startFaultySolanaProxy(node().url);
    try {
      const through = solana.settings({ rpcUrl: proxy.url, rpcTimeoutMs: 300 });
      const wallet = (await generateKeyPairSigner()).address;
      for (const fault of ['http500', 'rpcError', 'hang'] as const) {
        proxy.set(fault, ['getAccountInfo']);
        await expect(check(wallet, through)).rejects.toMatchObject({ code: 'NETWORK_UNAVAILABLE' });
      }
      proxy.set(null);
      expect(await check(wallet, through)).toEqual({ accepted: true, owner: wallet });
    } finally {
      await proxy.stop();
    }
  });
});
