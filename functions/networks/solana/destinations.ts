import { solanaRpcUrlOf } from './rpc-url.ts';
import { ApiError } from '../../shared/errors.ts';
import type { DestinationVerdict, NetworkDestinations } from '../network.ts';
import type { SolanaNetworkSettings } from './settings.ts';
import { associatedTokenAddress, isSolanaWallet, TOKEN_PROGRAM } from './address.ts';

/**
 * Every Solana destination is read on the chain before it is taken, since the form cannot tell a
 * wallet from an account a program owns: a token account made at a key's address is on the curve
 * as a wallet is, and USDT paid to "its" associated token account would be lost.
 *
 * - A wallet: an address on the curve with no account yet or the System program's (SOL alone).
 *   Paid into its associated token account, created when missing (./payouts.ts).
 * - USDT's associated token account of a known owner: an account of the Token program (USDT's), of
 *   USDT's mint, not frozen, at the address the Associated Token Account program gives its owner and
 *   the mint, which every wallet of that owner shows. Paid into as it is.
 * - Anything else is refused, 400 VALIDATION_FAILED, before anything is written: another token's
 *   account, a token account that is not its owner's associated one (no wallet would show it), an
 *   account of any other program, an address off the curve with no account (no one could own what
 *   it receives), a frozen USDT account (it cannot receive).
 *
 * The owner named is then checked as any destination is (Cambio's own addresses:
 * functions/withdrawals/refused-destinations.ts). One getAccountInfo over plain JSON-RPC at
 * `confirmed`, `jsonParsed` (the node decodes the token account), within the stage's rpcTimeoutMs;
 * a node that cannot answer makes the request 503 NETWORK_UNAVAILABLE, never a guess. Apart from
 * ./rpc-chain.ts, and without @solana/kit, so the API's money routes bundle the read alone.
 */
export const solanaDestinations: NetworkDestinations = {
  checkerFor: (settings) => {
    const network = settings.SOLANA as SolanaNetworkSettings | undefined;
    if (!network) return null;
    const url = solanaRpcUrlOf(network);
    return async (canonical) => destinationVerdict(await accountInfo(typeof url === 'string' ? url : await url(), canonical, network.rpcTimeoutMs), canonical, network.usdtMint);
  },
};

/** An account as getAccountInfo's jsonParsed gives it: its program, and a token account's fields
 * where the node parsed it as one. */
interface AccountInfo {
  owner: string;
  data: unknown;
}

interface ParsedTokenAccount {
  program: 'spl-token';
  parsed: { type: 'account'; info: { mint: string; owner: string; state: 'initialized' | 'frozen' | 'uninitialized' } };
}

const isParsedTokenAccount = (data: unknown): data is ParsedTokenAccount => {
  const parsed = (data as Partial<ParsedTokenAccount> | null)?.parsed;
  return (data as { program?: unknown } | null)?.program === 'spl-token' && parsed?.type === 'account' && typeof parsed.info?.mint === 'string' && typeof parsed.info.owner === 'string';
};

/** What the account at `at` is, as a destination of USDT on `mint`. */
function destinationVerdict(account: AccountInfo | null, at: string, mint: string): DestinationVerdict {
  if (!account || account.owner === SYSTEM_PROGRAM) {
    return isSolanaWallet(at) ? { accepted: true, owner: at } : refused('is not a wallet (it is off the Ed25519 curve) nor a USDT token account: no one could spend what it receives');
  }
  if (account.owner !== TOKEN_PROGRAM || !isParsedTokenAccount(account.data)) return refused('is an account of a program, not a wallet nor a USDT token account: USDT sent there would be lost');
  const token = account.data.parsed.info;
  if (token.mint !== mint) return refused("is a token account of another token than USDT: send to its owner's wallet address instead");
  if (token.state === 'frozen') return refused('is a USDT token account the issuer has frozen: it cannot receive');
  if (token.state !== 'initialized') return refused('is a token account not yet initialized');
  if (associatedTokenAddress(token.owner, mint) !== at) return refused("is a USDT token account, but not its owner's associated one, which wallets show: send to the owner's wallet address instead");
  return { accepted: true, owner: token.owner };
}

const refused = (reason: string): DestinationVerdict => ({ accepted: false, reason });

/** The System program: the owner of every wallet that holds SOL. */
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

/** getAccountInfo at `confirmed`, jsonParsed, or null where there is no account. */
async function accountInfo(url: string, at: string, timeoutMs: number): Promise<AccountInfo | null> {
  let answer: { result?: { value: AccountInfo | null }; error?: { code?: unknown; message?: unknown } };
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: [at, { commitment: 'confirmed', encoding: 'jsonParsed' }] }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    answer = (await response.json()) as typeof answer;
  } catch (error) {
    throw unreachable(error);
  }
  if (answer.error || !answer.result) throw unreachable(new Error(`(${String(answer.error?.code)}) ${String(answer.error?.message)}`));
  return answer.result.value;
}

/** The node could not say what the destination is: the caller retries (503), nothing is written. */
const unreachable = (cause: unknown): ApiError => new ApiError('NETWORK_UNAVAILABLE', 'Solana could not be reached to check the destination; retry in a moment', null, { cause });
