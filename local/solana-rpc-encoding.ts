import { AccountRole, getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, isNone, type Address, type EncodedAccount } from '@solana/kit';
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  AssociatedTokenInstruction,
  AccountState,
  parseAssociatedTokenInstruction,
  parseTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
  TokenInstruction,
} from '@solana-program/token';
import { parseSystemInstruction, SYSTEM_PROGRAM_ADDRESS, SystemInstruction } from '@solana-program/system';
import { decodeRecordedMessage, isWritableIndex, mintDataOf, tokenAccountDataOf, type InnerInstructionRecord, type RecordedTransaction, type SupportedMessage, type TokenBalanceRecord } from './solana-chain.ts';
import { invalidParams, RPC_ERROR, SolanaRpcError } from './solana-errors.ts';

/**
 * Accounts and transactions as Agave's JSON-RPC writes them (solana-account-decoder,
 * solana-transaction-status), in the shapes @solana/kit's RPC types describe (@solana/rpc-api,
 * @solana/rpc-types). Integers are bigint here and JSON numbers on the wire, which kit reads back
 * as bigint.
 */

const base58 = getBase58Decoder();
const fromBase58 = getBase58Encoder();
const base64 = getBase64Decoder();
const fromBase64 = getBase64Encoder();
const transactionDecoder = getTransactionDecoder();

/** What a node answers as an account's rentEpoch since rent collection ended: u64::MAX. */
const RENT_EXEMPT_EPOCH = 18_446_744_073_709_551_615n;

export type AccountEncoding = 'binary' | 'base58' | 'base64' | 'jsonParsed';
export type TransactionEncoding = 'json' | 'jsonParsed' | 'base58' | 'base64';

export function accountEncodingOf(value: unknown, fallback: AccountEncoding): AccountEncoding {
  if (value === undefined || value === null) return fallback;
  if (value === 'binary' || value === 'base58' || value === 'base64' || value === 'jsonParsed') return value;
  if (value === 'base64+zstd') throw invalidParams('base64+zstd encoding is not supported by the local node');
  throw invalidParams(`Invalid params: unknown variant \`${String(value)}\``);
}

export function transactionEncodingOf(value: unknown): TransactionEncoding {
  if (value === undefined || value === null) return 'json';
  if (value === 'json' || value === 'jsonParsed' || value === 'base58' || value === 'base64') return value;
  throw invalidParams(`Invalid params: unknown variant \`${String(value)}\``);
}

/**
 * The token amount a node writes: the integer as a string (what to read), and `uiAmount`, a float
 * the protocol carries for display, never for money.
 */
export function tokenAmount(amount: bigint, decimals: number): { amount: string; decimals: number; uiAmount: number; uiAmountString: string } {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? '' : digits.slice(-decimals).replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

/** An account in an RPC answer, in the encoding asked for; a dataSlice applies to the binary ones. */
export function encodeAccount(
  account: EncodedAccount,
  encoding: AccountEncoding,
  dataSlice: { offset: number; length: number } | undefined,
  decimalsOf: (mint: Address) => number | null,
): Record<string, unknown> {
  const base = { executable: account.executable, lamports: account.lamports, owner: account.programAddress, rentEpoch: RENT_EXEMPT_EPOCH, space: BigInt(account.data.length) };
  if (encoding === 'jsonParsed') {
    const parsed = parsedAccountData(account, decimalsOf);
    if (parsed) return { ...base, data: parsed };
    return { ...base, data: [base64.decode(account.data), 'base64'] };
  }
  const data = dataSlice ? account.data.slice(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data;
  if (encoding === 'base64') return { ...base, data: [base64.decode(data), 'base64'] };
  if (data.length > 128) throw invalidParams('Encoded binary (base 58) data should be less than 128 bytes, please use Base64 encoding.');
  return { ...base, data: encoding === 'base58' ? [base58.decode(data), 'base58'] : base58.decode(data) };
}

/** jsonParsed for the Token program's token accounts and mints (other accounts are base64, as a
 * node answers those it has no parser for). */
function parsedAccountData(account: EncodedAccount, decimalsOf: (mint: Address) => number | null): Record<string, unknown> | null {
  const token = tokenAccountDataOf(account);
  if (token) {
    const decimals = decimalsOf(token.mint);
    if (decimals === null) return null;
    const info: Record<string, unknown> = {
      isNative: !isNone(token.isNative),
      mint: token.mint,
      owner: token.owner,
      state: token.state === AccountState.Frozen ? 'frozen' : 'initialized',
      tokenAmount: tokenAmount(token.amount, decimals),
    };
    if (!isNone(token.delegate)) Object.assign(info, { delegate: token.delegate.value, delegatedAmount: tokenAmount(token.delegatedAmount, decimals) });
    if (!isNone(token.closeAuthority)) info.closeAuthority = token.closeAuthority.value;
    if (!isNone(token.isNative)) info.rentExemptReserve = tokenAmount(token.isNative.value, decimals);
    return { program: 'spl-token', parsed: { type: 'account', info }, space: BigInt(account.data.length) };
  }
  const mint = mintDataOf(account);
  if (mint) {
    return {
      program: 'spl-token',
      parsed: {
        type: 'mint',
        info: {
          decimals: mint.decimals,
          freezeAuthority: isNone(mint.freezeAuthority) ? null : mint.freezeAuthority.value,
          isInitialized: mint.isInitialized,
          mintAuthority: isNone(mint.mintAuthority) ? null : mint.mintAuthority.value,
          supply: mint.supply.toString(),
        },
      },
      space: BigInt(account.data.length),
    };
  }
  return null;
}

/** A transaction's version as getTransaction and getBlock name it. */
export function versionOf(message: SupportedMessage): 'legacy' | 0 {
  return message.version === 'legacy' ? 'legacy' : 0;
}

/** A version 0 transaction asked for by a client that named no maxSupportedTransactionVersion:
 * the error a node answers, so that a client learns to name one. */
export function expectVersionSupported(message: SupportedMessage, maxSupportedTransactionVersion: unknown): void {
  if (message.version === 0 && maxSupportedTransactionVersion === undefined) {
    throw new SolanaRpcError(
      RPC_ERROR.unsupportedTransactionVersion,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
  }
}

/** The part of a transaction's `meta` every transactionDetails level answers: its outcome, its fee
 * and the balances before and after, SOL and token. */
function balancesMeta(transaction: RecordedTransaction) {
  return {
    err: transaction.err,
    status: transaction.err ? { Err: transaction.err } : { Ok: null },
    fee: transaction.fee,
    preBalances: transaction.preBalances,
    postBalances: transaction.postBalances,
    preTokenBalances: transaction.preTokenBalances.map(encodeTokenBalance),
    postTokenBalances: transaction.postTokenBalances.map(encodeTokenBalance),
  };
}

/** getTransaction's and getBlock's (transactionDetails "full") `{transaction, meta, version?}`. */
export function encodeTransactionWithMeta(transaction: RecordedTransaction, encoding: TransactionEncoding, maxSupportedTransactionVersion: unknown): Record<string, unknown> {
  const message = decodeRecordedMessage(transaction);
  expectVersionSupported(message, maxSupportedTransactionVersion);
  const parsed = encoding === 'jsonParsed';
  return {
    transaction: encodeTransaction(transaction, message, encoding),
    meta: {
      ...balancesMeta(transaction),
      innerInstructions: transaction.innerInstructions.map(({ index, instructions }) => ({
        index,
        instructions: instructions.map((instruction) => (parsed ? parsedInnerInstruction(instruction, message) : instruction)),
      })),
      logMessages: transaction.logMessages,
      rewards: [],
      ...(parsed ? {} : { loadedAddresses: { writable: [], readonly: [] } }),
      computeUnitsConsumed: transaction.computeUnitsConsumed,
      ...(transaction.returnData && { returnData: { programId: transaction.returnData.programId, data: [transaction.returnData.data, 'base64'] } }),
    },
    ...(maxSupportedTransactionVersion !== undefined && { version: versionOf(message) }),
  };
}

/** getBlock's transactionDetails "accounts": signatures, the accounts, and the balances. */
export function encodeTransactionAccounts(transaction: RecordedTransaction, maxSupportedTransactionVersion: unknown): Record<string, unknown> {
  const message = decodeRecordedMessage(transaction);
  expectVersionSupported(message, maxSupportedTransactionVersion);
  return {
    transaction: { signatures: signaturesOf(transaction, message), accountKeys: parsedAccountKeys(message) },
    meta: balancesMeta(transaction),
    ...(maxSupportedTransactionVersion !== undefined && { version: versionOf(message) }),
  };
}

function encodeTransaction(transaction: RecordedTransaction, message: SupportedMessage, encoding: TransactionEncoding): unknown {
  if (encoding === 'base64') return [transaction.wire, 'base64'];
  if (encoding === 'base58') return [base58.decode(fromBase64.encode(transaction.wire)), 'base58'];
  const lookups = message.version === 0 ? { addressTableLookups: [] } : {};
  if (encoding === 'jsonParsed') {
    return {
      signatures: signaturesOf(transaction, message),
      message: {
        accountKeys: parsedAccountKeys(message),
        instructions: message.instructions.map((instruction) =>
          parsedInstruction(
            message.staticAccounts[instruction.programAddressIndex]!,
            (instruction.accountIndices ?? []).map((index) => message.staticAccounts[index]!),
            new Uint8Array(instruction.data ?? []),
            null,
          ),
        ),
        recentBlockhash: message.lifetimeToken,
        ...lookups,
      },
    };
  }
  return {
    signatures: signaturesOf(transaction, message),
    message: {
      accountKeys: message.staticAccounts,
      header: {
        numRequiredSignatures: message.header.numSignerAccounts,
        numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts,
      },
      instructions: message.instructions.map((instruction) => ({
        programIdIndex: instruction.programAddressIndex,
        accounts: instruction.accountIndices ?? [],
        data: base58.decode(instruction.data ?? new Uint8Array()),
        stackHeight: null,
      })),
      recentBlockhash: message.lifetimeToken,
      ...lookups,
    },
  };
}

/** The transaction's signatures, base58, in the order of its signers. */
export function signaturesOf(transaction: RecordedTransaction, message: SupportedMessage): string[] {
  const { signatures } = transactionDecoder.decode(fromBase64.encode(transaction.wire));
  return message.staticAccounts.slice(0, message.header.numSignerAccounts).map((signer) => base58.decode(signatures[signer] ?? new Uint8Array(64)));
}

function parsedAccountKeys(message: SupportedMessage) {
  return message.staticAccounts.map((pubkey, index) => ({
    pubkey,
    signer: index < message.header.numSignerAccounts,
    writable: isWritableIndex(message, index),
    source: 'transaction',
  }));
}

function encodeTokenBalance(balance: TokenBalanceRecord) {
  return { accountIndex: balance.accountIndex, mint: balance.mint, owner: balance.owner, programId: balance.programId, uiTokenAmount: tokenAmount(balance.amount, balance.decimals) };
}

function parsedInnerInstruction(instruction: InnerInstructionRecord, message: SupportedMessage): unknown {
  return parsedInstruction(
    message.staticAccounts[instruction.programIdIndex]!,
    instruction.accounts.map((index) => message.staticAccounts[index]!),
    new Uint8Array(fromBase58.encode(instruction.data)),
    instruction.stackHeight,
  );
}

/**
 * An instruction as jsonParsed writes it: parsed for the programs a deposit or a payout goes
 * through (System, SPL Token, Associated Token Account), with the names and fields of Agave's
 * parsers; any other, or one those parsers do not name here, partially decoded.
 */
function parsedInstruction(programId: Address, accounts: Address[], data: Uint8Array, stackHeight: number | null): unknown {
  const instruction = { programAddress: programId, accounts: accounts.map((address) => ({ address, role: AccountRole.READONLY })), data };
  let parsed: { program: string; type: string; info: Record<string, unknown> } | null = null;
  try {
    if (programId === SYSTEM_PROGRAM_ADDRESS) parsed = parsedSystemInstruction(instruction);
    else if (programId === TOKEN_PROGRAM_ADDRESS) parsed = parsedTokenInstruction(instruction);
    else if (programId === ASSOCIATED_TOKEN_PROGRAM_ADDRESS) parsed = parsedAssociatedTokenInstruction(instruction);
  } catch {
    parsed = null;
  }
  if (parsed) return { parsed: { info: parsed.info, type: parsed.type }, program: parsed.program, programId, stackHeight };
  return { accounts, data: base58.decode(data), programId, stackHeight };
}

type ParsableInstruction = Parameters<typeof parseTokenInstruction>[0] & { accounts: { address: Address; role: AccountRole }[] };

function parsedSystemInstruction(instruction: ParsableInstruction) {
  const system = parseSystemInstruction(instruction);
  const program = 'system';
  switch (system.instructionType) {
    case SystemInstruction.TransferSol:
      return { program, type: 'transfer', info: { destination: system.accounts.destination.address, lamports: system.data.amount, source: system.accounts.source.address } };
    case SystemInstruction.CreateAccount:
      return {
        program,
        type: 'createAccount',
        info: { lamports: system.data.lamports, newAccount: system.accounts.newAccount.address, owner: system.data.programAddress, source: system.accounts.payer.address, space: system.data.space },
      };
    default:
      return null;
  }
}

/**
 * A token instruction's amount as a node's jsonParsed writes it: `amount` alone for the unchecked
 * forms (with the mint where the instruction names it), the mint and a `tokenAmount` with decimals
 * for the checked ones.
 */
function amountInfo(
  token: { accounts: object; data: { amount: bigint; decimals?: number } },
  namesMint = false,
): Record<string, unknown> {
  const mint = 'mint' in token.accounts ? (token.accounts.mint as { address: Address }).address : undefined;
  if (token.data.decimals === undefined) return { amount: token.data.amount.toString(), ...(namesMint && mint && { mint }) };
  return { mint, tokenAmount: tokenAmount(token.data.amount, token.data.decimals) };
}

function parsedTokenInstruction(instruction: ParsableInstruction) {
  const token = parseTokenInstruction(instruction);
  const program = 'spl-token';
  switch (token.instructionType) {
    case TokenInstruction.Transfer:
    case TokenInstruction.TransferChecked: {
      const { authority, destination, source } = token.accounts;
      return { program, type: token.instructionType === TokenInstruction.Transfer ? 'transfer' : 'transferChecked', info: { authority: authority.address, destination: destination.address, source: source.address, ...amountInfo(token) } };
    }
    case TokenInstruction.MintTo:
    case TokenInstruction.MintToChecked: {
      const { token: account, mintAuthority } = token.accounts;
      return { program, type: token.instructionType === TokenInstruction.MintTo ? 'mintTo' : 'mintToChecked', info: { account: account.address, mintAuthority: mintAuthority.address, ...amountInfo(token, true) } };
    }
    case TokenInstruction.Burn:
    case TokenInstruction.BurnChecked: {
      const { account, authority } = token.accounts;
      return { program, type: token.instructionType === TokenInstruction.Burn ? 'burn' : 'burnChecked', info: { account: account.address, authority: authority.address, ...amountInfo(token, true) } };
    }
    case TokenInstruction.FreezeAccount:
    case TokenInstruction.ThawAccount:
      return {
        program,
        type: token.instructionType === TokenInstruction.FreezeAccount ? 'freezeAccount' : 'thawAccount',
        info: { account: token.accounts.account.address, freezeAuthority: token.accounts.owner.address, mint: token.accounts.mint.address },
      };
    case TokenInstruction.CloseAccount:
      return {
        program,
        type: 'closeAccount',
        info: { account: token.accounts.account.address, destination: token.accounts.destination.address, owner: token.accounts.owner.address },
      };
    case TokenInstruction.InitializeAccount3:
      return { program, type: 'initializeAccount3', info: { account: token.accounts.account.address, mint: token.accounts.mint.address, owner: token.data.owner } };
    case TokenInstruction.InitializeImmutableOwner:
      return { program, type: 'initializeImmutableOwner', info: { account: token.accounts.account.address } };
    case TokenInstruction.GetAccountDataSize:
      return { program, type: 'getAccountDataSize', info: { extensionTypes: [], mint: token.accounts.mint.address } };
    default:
      return null;
  }
}

function parsedAssociatedTokenInstruction(instruction: ParsableInstruction) {
  const ata = parseAssociatedTokenInstruction(instruction);
  if (ata.instructionType === AssociatedTokenInstruction.RecoverNestedAssociatedToken) return null;
  const { payer, ata: account, owner, mint, systemProgram, tokenProgram } = ata.accounts;
  return {
    program: 'spl-associated-token-account',
    type: ata.instructionType === AssociatedTokenInstruction.CreateAssociatedToken ? 'create' : 'createIdempotent',
    info: { account: account.address, mint: mint.address, source: payer.address, systemProgram: systemProgram.address, tokenProgram: tokenProgram.address, wallet: owner.address },
  };
}
