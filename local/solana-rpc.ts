import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getBase58Encoder, getBase64Encoder, isAddress, type Address, type Signature } from '@solana/kit';
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token';
import { decodeRecordedMessage, mintDataOf, SLOTS_PER_EPOCH, STATUS_CACHE_SLOTS, tokenAccountDataOf, type Commitment, type SolanaChain } from './solana-chain.ts';
import { invalidParams, RPC_ERROR, SolanaRpcError } from './solana-errors.ts';
import {
  accountEncodingOf,
  encodeAccount,
  encodeTransactionAccounts,
  encodeTransactionWithMeta,
  expectVersionSupported,
  signaturesOf,
  tokenAmount,
  transactionEncodingOf,
  type AccountEncoding,
} from './solana-rpc-encoding.ts';

/**
 * A standard Solana JSON-RPC endpoint over HTTP in front of the local chain (./solana-chain.ts),
 * so that Cambio's Solana adapter speaks to it through @solana/kit's createSolanaRpc as it speaks
 * to a mainnet provider. Methods, parameters, defaults and errors are Agave's (a missing
 * commitment is `finalized`, as a node applies it; kit sends `confirmed` unless told otherwise).
 * docs/solana-local.md lists the methods and what is not emulated.
 */
export interface SolanaRpcServer {
  url: string;
  close(): Promise<void>;
}

/** The largest request body read: a transaction is at most 1232 bytes, a batch a few of them. */
const MAX_BODY_BYTES = 1 << 20;
/** Agave's limits on a request's list parameters. */
const MAX_MULTIPLE_ACCOUNTS = 100;
const MAX_SIGNATURE_STATUSES = 256;
const MAX_SIGNATURES_FOR_ADDRESS = 1_000;
const MAX_GET_BLOCKS_RANGE = 500_000;

type Params = unknown[];
type Handler = (params: Params) => unknown;

export async function startSolanaRpcServer(
  chain: SolanaChain,
  { host, port, requestAirdrop }: { host: string; port: number; requestAirdrop: (to: Address, lamports: bigint) => Promise<Signature> },
): Promise<SolanaRpcServer> {
  const methods = rpcMethods(chain, requestAirdrop);
  const server = createServer((request, response) => void answer(methods, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const { port: boundPort } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${boundPort}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function answer(methods: Record<string, Handler>, request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method !== 'POST') {
    response.writeHead(405, { 'content-type': 'text/plain' }).end('Used HTTP Method is not allowed. POST or OPTIONS is required');
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      response.writeHead(413).end();
      return;
    }
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    send(response, { jsonrpc: '2.0', error: { code: RPC_ERROR.parseError, message: 'Parse error' }, id: null });
    return;
  }
  if (Array.isArray(body)) {
    send(response, await Promise.all(body.map((call) => answerCall(methods, call))));
    return;
  }
  send(response, await answerCall(methods, body));
}

async function answerCall(methods: Record<string, Handler>, call: unknown): Promise<unknown> {
  const { id = null, method, params = [] } = (typeof call === 'object' && call !== null ? call : {}) as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof method !== 'string' || !Array.isArray(params)) return { jsonrpc: '2.0', error: { code: RPC_ERROR.invalidRequest, message: 'Invalid request' }, id };
  const handler = Object.hasOwn(methods, method) ? methods[method] : undefined;
  if (!handler) return { jsonrpc: '2.0', error: { code: RPC_ERROR.methodNotFound, message: 'Method not found' }, id };
  try {
    return { jsonrpc: '2.0', result: await handler(params), id };
  } catch (error) {
    if (error instanceof SolanaRpcError) return { jsonrpc: '2.0', error: { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) }, id };
    console.error(JSON.stringify({ level: 'error', message: `local Solana node: ${method} failed`, error: String((error as Error)?.stack ?? error) }));
    return { jsonrpc: '2.0', error: { code: RPC_ERROR.internalError, message: 'Internal error' }, id };
  }
}

function send(response: ServerResponse, body: unknown): void {
  response.writeHead(200, { 'content-type': 'application/json' }).end(toJson(body));
}

/** JSON with bigint written as a JSON number (u64 amounts, lamports, slots), which kit parses
 * back into bigint; JSON.stringify refuses bigint. */
export function toJson(value: unknown): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'number':
      return Number.isFinite(value) ? String(value) : 'null';
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'object':
      if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : toJson(item))).join(',')}]`;
      return `{${Object.entries(value)
        .filter(([, item]) => item !== undefined)
        .map(([key, item]) => `${JSON.stringify(key)}:${toJson(item)}`)
        .join(',')}}`;
    default:
      return 'null';
  }
}

const fromBase58 = getBase58Encoder();
const fromBase64 = getBase64Encoder();

function rpcMethods(chain: SolanaChain, requestAirdrop: (to: Address, lamports: bigint) => Promise<Signature>): Record<string, Handler> {
  /** The commitment's slot, once it reached the caller's minContextSlot. */
  const contextSlot = (config: Config, commitment: Commitment): number => {
    const slot = chain.slotAt(commitment);
    if (config.minContextSlot !== undefined && slot < Number(config.minContextSlot)) {
      throw new SolanaRpcError(RPC_ERROR.minContextSlotNotReached, 'Minimum context slot has not been reached', { contextSlot: slot });
    }
    return slot;
  };
  const withContext = (slot: number, value: unknown) => ({ context: { slot }, value });
  const decimalsOf = (commitment: Commitment) => (mint: Address) => mintDataOf(chain.accountAt(mint, commitment))?.decimals ?? null;
  const accountAnswer = (account: Parameters<typeof encodeAccount>[0] | null, config: Config, encoding: AccountEncoding, commitment: Commitment) =>
    account && encodeAccount(account, encoding, dataSliceOf(config.dataSlice), decimalsOf(commitment));

  return {
    getHealth: () => 'ok',
    getSlot: ([config]) => {
      const options = configOf(config);
      return contextSlot(options, commitmentOf(options));
    },
    getBlockHeight: ([config]) => {
      const options = configOf(config);
      return chain.blockHeightOf(contextSlot(options, commitmentOf(options)));
    },
    getEpochInfo: ([config]) => {
      const options = configOf(config);
      const slot = contextSlot(options, commitmentOf(options));
      return {
        absoluteSlot: slot,
        blockHeight: chain.blockHeightOf(slot),
        epoch: Math.floor(slot / SLOTS_PER_EPOCH),
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: chain.transactionCount,
      };
    },
    getLatestBlockhash: ([config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      contextSlot(options, commitment);
      const { slot, blockhash, lastValidBlockHeight } = chain.latestBlockhash(commitment);
      return withContext(slot, { blockhash, lastValidBlockHeight });
    },
    isBlockhashValid: ([blockhash, config]) => {
      const options = configOf(config);
      return withContext(contextSlot(options, commitmentOf(options)), chain.isBlockhashValid(stringParam(blockhash, 'blockhash')));
    },
    getFirstAvailableBlock: () => chain.genesisSlot,
    getBlockTime: ([slot]) => {
      const number = slotParam(slot);
      if (number < chain.genesisSlot || number > chain.slotAt('confirmed')) throw blockNotAvailable(number);
      return chain.blockTimeOf(number);
    },
    getMinimumBalanceForRentExemption: ([size]) => {
      if (!Number.isSafeInteger(size) || (size as number) < 0) throw invalidParams('Invalid params: data size must be a non-negative integer');
      return chain.minimumBalanceForRentExemption(BigInt(size as number));
    },

    sendTransaction: ([wire, config]) => {
      const options = configOf(config);
      return chain.sendTransaction(wireParam(wire, options.encoding), { skipPreflight: options.skipPreflight === true });
    },
    simulateTransaction: ([wire, config]) => {
      const options = configOf(config);
      const sigVerify = options.sigVerify === true;
      const replaceRecentBlockhash = options.replaceRecentBlockhash === true;
      if (sigVerify && replaceRecentBlockhash) throw invalidParams('sigVerify may not be used with replaceRecentBlockhash');
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      const result = chain.simulate(wireParam(wire, options.encoding), { sigVerify, replaceRecentBlockhash });
      const accounts = configOf(options.accounts);
      const accountsEncoding = accountEncodingOf(accounts.encoding, 'base64');
      return withContext(slot, {
        err: result.err,
        logs: result.logs,
        accounts: Array.isArray(accounts.addresses) ? accounts.addresses.map((address) => accountAnswer(result.accountAfter(addressParam(address)), {}, accountsEncoding, 'processed')) : null,
        unitsConsumed: result.unitsConsumed,
        returnData: result.returnData && { programId: result.returnData.programId, data: [result.returnData.data, 'base64'] },
        ...(options.innerInstructions === true && { innerInstructions: result.innerInstructions }),
        replacementBlockhash: result.replacementBlockhash,
        fee: null,
        preBalances: null,
        postBalances: null,
        preTokenBalances: null,
        postTokenBalances: null,
        loadedAddresses: null,
      });
    },
    requestAirdrop: ([to, amount]) => {
      if (!Number.isSafeInteger(amount) || (amount as number) <= 0) throw invalidParams('Invalid params: lamports must be a positive integer');
      return requestAirdrop(addressParam(to), BigInt(amount as number));
    },

    getSignatureStatuses: ([signatures, config]) => {
      if (!Array.isArray(signatures)) throw invalidParams('Invalid params: signatures must be an array');
      if (signatures.length > MAX_SIGNATURE_STATUSES) throw invalidParams(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}`);
      const searchTransactionHistory = configOf(config).searchTransactionHistory === true;
      const latest = chain.slotAt('processed');
      const finalized = chain.slotAt('finalized');
      return withContext(
        latest,
        signatures.map((signature) => {
          const transaction = chain.transaction(stringParam(signature, 'signature'));
          // Without searchTransactionHistory a node looks in its status cache only.
          if (!transaction || (!searchTransactionHistory && latest - transaction.slot > STATUS_CACHE_SLOTS)) return null;
          const isFinal = transaction.slot <= finalized;
          return {
            slot: transaction.slot,
            confirmations: isFinal ? null : latest - transaction.slot,
            err: transaction.err,
            status: transaction.err ? { Err: transaction.err } : { Ok: null },
            confirmationStatus: isFinal ? 'finalized' : 'confirmed',
          };
        }),
      );
    },
    getTransaction: ([signature, config]) => {
      const options = typeof config === 'string' ? { encoding: config } : configOf(config);
      const commitment = confirmedOrFinalized(options);
      const transaction = chain.transaction(stringParam(signature, 'signature'));
      if (!transaction || transaction.slot > chain.slotAt(commitment)) return null;
      return {
        slot: transaction.slot,
        blockTime: chain.blockTimeOf(transaction.slot),
        ...encodeTransactionWithMeta(transaction, transactionEncodingOf(options.encoding), options.maxSupportedTransactionVersion),
      };
    },
    getSignaturesForAddress: ([address, config]) => {
      const options = configOf(config);
      const commitment = confirmedOrFinalized(options);
      const limit = options.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : Number(options.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw invalidParams(`Invalid limit; max ${MAX_SIGNATURES_FOR_ADDRESS}`);
      const upTo = contextSlot(options, commitment);
      let newestFirst = chain
        .transactionsOf(addressParam(address))
        .filter((transaction) => transaction.slot <= upTo)
        .reverse();
      if (options.before !== undefined) {
        const at = newestFirst.findIndex((transaction) => transaction.signature === options.before);
        newestFirst = at < 0 ? [] : newestFirst.slice(at + 1);
      }
      if (options.until !== undefined) {
        const at = newestFirst.findIndex((transaction) => transaction.signature === options.until);
        if (at >= 0) newestFirst = newestFirst.slice(0, at);
      }
      const finalized = chain.slotAt('finalized');
      return newestFirst.slice(0, limit).map((transaction) => ({
        signature: transaction.signature,
        slot: transaction.slot,
        err: transaction.err,
        memo: null,
        blockTime: chain.blockTimeOf(transaction.slot),
        confirmationStatus: transaction.slot <= finalized ? 'finalized' : 'confirmed',
      }));
    },

    getBlock: ([slot, config]) => {
      const options = typeof config === 'string' ? { encoding: config } : configOf(config);
      const number = slotParam(slot);
      const commitment = confirmedOrFinalized(options);
      if (number < chain.genesisSlot) throw blockCleanedUp(number, chain.genesisSlot);
      if (number > chain.slotAt(commitment)) throw blockNotAvailable(number);
      const encoding = transactionEncodingOf(options.encoding);
      const details = options.transactionDetails ?? 'full';
      const transactions = chain.transactionsIn(number);
      const block: Record<string, unknown> = {
        blockHeight: chain.blockHeightOf(number),
        blockTime: chain.blockTimeOf(number),
        blockhash: chain.blockhashOf(number),
        parentSlot: number - 1,
        previousBlockhash: chain.blockhashOf(number - 1),
      };
      if (details === 'full') block.transactions = transactions.map((transaction) => encodeTransactionWithMeta(transaction, encoding, options.maxSupportedTransactionVersion));
      else if (details === 'accounts') block.transactions = transactions.map((transaction) => encodeTransactionAccounts(transaction, options.maxSupportedTransactionVersion));
      else if (details === 'signatures') {
        block.signatures = transactions.map((transaction) => {
          const message = decodeRecordedMessage(transaction);
          expectVersionSupported(message, options.maxSupportedTransactionVersion);
          return signaturesOf(transaction, message)[0];
        });
      } else if (details !== 'none') throw invalidParams(`Invalid params: unknown variant \`${String(details)}\``);
      if (options.rewards !== false) block.rewards = [];
      return block;
    },
    getBlocks: ([start, end, config]) => {
      // The end slot may be left out and the config come second, as Agave reads it.
      const [endSlot, options] = typeof end === 'object' && end !== null ? [undefined, configOf(end)] : [end ?? undefined, configOf(config)];
      const from = slotParam(start);
      const upTo = Math.min(chain.slotAt(confirmedOrFinalized(options)), endSlot === undefined ? from + MAX_GET_BLOCKS_RANGE : slotParam(endSlot));
      if (upTo - from > MAX_GET_BLOCKS_RANGE) throw invalidParams(`Slot range too large; max ${MAX_GET_BLOCKS_RANGE}`);
      return slotsBetween(Math.max(from, chain.genesisSlot), upTo);
    },
    getBlocksWithLimit: ([start, limit, config]) => {
      const from = slotParam(start);
      if (!Number.isSafeInteger(limit) || (limit as number) < 0 || (limit as number) > MAX_GET_BLOCKS_RANGE) throw invalidParams(`Limit too large; max ${MAX_GET_BLOCKS_RANGE}`);
      const first = Math.max(from, chain.genesisSlot);
      return slotsBetween(first, Math.min(chain.slotAt(confirmedOrFinalized(configOf(config))), first + (limit as number) - 1));
    },

    getAccountInfo: ([address, config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      return withContext(slot, accountAnswer(chain.accountAt(addressParam(address), commitment), options, accountEncodingOf(options.encoding, 'binary'), commitment));
    },
    getMultipleAccounts: ([addresses, config]) => {
      if (!Array.isArray(addresses)) throw invalidParams('Invalid params: addresses must be an array');
      if (addresses.length > MAX_MULTIPLE_ACCOUNTS) throw invalidParams(`Too many inputs provided; max ${MAX_MULTIPLE_ACCOUNTS}`);
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      const encoding = accountEncodingOf(options.encoding, 'base64');
      return withContext(
        slot,
        addresses.map((address) => accountAnswer(chain.accountAt(addressParam(address), commitment), options, encoding, commitment)),
      );
    },
    getBalance: ([address, config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      return withContext(slot, chain.accountAt(addressParam(address), commitment)?.lamports ?? 0n);
    },
    getTokenAccountBalance: ([address, config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      const account = chain.accountAt(addressParam(address), commitment);
      if (!account) throw invalidParams('Invalid param: could not find account');
      const token = tokenAccountDataOf(account);
      const decimals = token && decimalsOf(commitment)(token.mint);
      if (!token || decimals === null) throw invalidParams('Invalid param: not a Token account');
      return withContext(slot, tokenAmount(token.amount, decimals));
    },
    getTokenSupply: ([address, config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      const mint = mintDataOf(chain.accountAt(addressParam(address), commitment));
      if (!mint) throw invalidParams('Invalid param: not a Token mint');
      return withContext(slot, tokenAmount(mint.supply, mint.decimals));
    },
    getTokenAccountsByOwner: ([owner, filter, config]) => {
      const options = configOf(config);
      const commitment = commitmentOf(options);
      const slot = contextSlot(options, commitment);
      const ownerAddress = addressParam(owner);
      const { mint, programId } = configOf(filter);
      if (mint === undefined && programId === undefined) throw invalidParams('Invalid params: the filter must name a mint or a programId');
      if (mint !== undefined && !mintDataOf(chain.accountAt(addressParam(mint), commitment))) throw invalidParams('Invalid param: could not find mint');
      // Only the legacy Token program's accounts are read here (USDT's program); Token-2022 holds none.
      if (programId !== undefined && addressParam(programId) !== TOKEN_PROGRAM_ADDRESS) {
        if (programId === TOKEN_2022_PROGRAM_ADDRESS) return withContext(slot, []);
        throw invalidParams('Invalid param: unrecognized Token program id');
      }
      const encoding = accountEncodingOf(options.encoding, 'binary');
      const held = chain.tokenProgramAccountsAt(commitment).filter((account) => {
        const token = tokenAccountDataOf(account);
        return token !== null && token.owner === ownerAddress && (mint === undefined || token.mint === mint);
      });
      return withContext(
        slot,
        held.map((account) => ({ pubkey: account.address, account: accountAnswer(account, options, encoding, commitment) })),
      );
    },
  };
}

const TOKEN_2022_PROGRAM_ADDRESS = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

type Config = Record<string, unknown> & {
  commitment?: unknown;
  minContextSlot?: unknown;
  encoding?: unknown;
  dataSlice?: unknown;
  maxSupportedTransactionVersion?: unknown;
  transactionDetails?: unknown;
  rewards?: unknown;
  addresses?: unknown;
};

function configOf(value: unknown): Config {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams('Invalid params: a config object was expected');
  return value as Config;
}

/** A node's default commitment is `finalized`. */
function commitmentOf(config: Config): Commitment {
  const commitment = config.commitment ?? 'finalized';
  if (commitment === 'processed' || commitment === 'confirmed' || commitment === 'finalized') return commitment;
  throw invalidParams(`Invalid params: unknown variant \`${String(commitment)}\``);
}

/** getBlock, getBlocks, getTransaction and getSignaturesForAddress read only blocks a cluster voted on. */
function confirmedOrFinalized(config: Config): Commitment {
  const commitment = commitmentOf(config);
  if (commitment === 'processed') throw invalidParams('Method does not support commitment below `confirmed`');
  return commitment;
}

function slotParam(value: unknown): number {
  if (!Number.isSafeInteger(value) || (value as number) < 0) throw invalidParams('Invalid params: a slot was expected');
  return value as number;
}

function stringParam(value: unknown, what: string): string {
  if (typeof value !== 'string') throw invalidParams(`Invalid params: ${what} must be a string`);
  return value;
}

function addressParam(value: unknown): Address {
  if (typeof value !== 'string' || !isAddress(value)) throw invalidParams('Invalid param: WrongSize');
  return value;
}

function dataSliceOf(value: unknown): { offset: number; length: number } | undefined {
  if (value === undefined || value === null) return undefined;
  const { offset, length } = configOf(value);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length)) throw invalidParams('Invalid params: dataSlice needs an offset and a length');
  return { offset: offset as number, length: length as number };
}

/** A wire transaction in the encoding named (Agave's default: base58). */
function wireParam(value: unknown, encoding: unknown): Uint8Array {
  const text = stringParam(value, 'transaction');
  try {
    if (encoding === 'base64') return new Uint8Array(fromBase64.encode(text));
    if (encoding === undefined || encoding === 'base58') return new Uint8Array(fromBase58.encode(text));
  } catch {
    throw invalidParams(`invalid ${String(encoding ?? 'base58')} encoding of the transaction`);
  }
  throw invalidParams(`Invalid params: unknown variant \`${String(encoding)}\``);
}

const slotsBetween = (from: number, upTo: number): number[] => Array.from({ length: Math.max(0, upTo - from + 1) }, (_, index) => from + index);

const blockNotAvailable = (slot: number) => new SolanaRpcError(RPC_ERROR.blockNotAvailable, `Block not available for slot ${slot}`);

const blockCleanedUp = (slot: number, first: number) =>
  new SolanaRpcError(RPC_ERROR.blockCleanedUp, `Block ${slot} cleaned up, does not exist on node. First available block: ${first}`);
