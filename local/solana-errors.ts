import type { TransactionError } from '@solana/kit';
import type { FailedTransactionMetadata } from 'litesvm';
import {
  InstructionErrorCustom,
  TransactionErrorDuplicateInstruction,
  TransactionErrorInstructionError,
  TransactionErrorInsufficientFundsForRent,
} from 'litesvm/dist/internal.js';

/**
 * The JSON-RPC errors the local Solana node answers with, the codes and messages of Agave's RPC
 * (rpc-client-api's custom_error.rs), so that @solana/kit turns each into the SolanaError a
 * mainnet node's answer would give (its getSolanaErrorFromJsonRpcError maps on the code).
 */
export const RPC_ERROR = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  blockCleanedUp: -32001,
  sendTransactionPreflightFailure: -32002,
  transactionSignatureVerificationFailure: -32003,
  blockNotAvailable: -32004,
  transactionHistoryNotAvailable: -32011,
  unsupportedTransactionVersion: -32015,
  minContextSlotNotReached: -32016,
} as const;

export class SolanaRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string): SolanaRpcError => new SolanaRpcError(RPC_ERROR.invalidParams, message);

/** The simulation a node runs before it forwards a transaction failed: -32002, with the
 * simulation's result as `data` (kit reads `data.err` as the cause). */
export function preflightFailure(err: TransactionError, simulation: { logs?: string[]; unitsConsumed?: bigint } = {}): SolanaRpcError {
  return new SolanaRpcError(RPC_ERROR.sendTransactionPreflightFailure, `Transaction simulation failed: ${transactionErrorMessage(err)}`, {
    err,
    logs: simulation.logs ?? [],
    accounts: null,
    unitsConsumed: simulation.unitsConsumed ?? 0n,
    returnData: null,
    innerInstructions: null,
    replacementBlockhash: null,
  });
}

/**
 * litesvm's fieldless TransactionError, by the value its `TransactionErrorFieldless` gives each
 * (node_modules/litesvm/dist/internal.d.ts; a const enum, so its names are not there at run time).
 */
const TRANSACTION_ERROR_NAMES = [
  'AccountInUse',
  'AccountLoadedTwice',
  'AccountNotFound',
  'ProgramAccountNotFound',
  'InsufficientFundsForFee',
  'InvalidAccountForFee',
  'AlreadyProcessed',
  'BlockhashNotFound',
  'CallChainTooDeep',
  'MissingSignatureForFee',
  'InvalidAccountIndex',
  'SignatureFailure',
  'InvalidProgramForExecution',
  'SanitizeFailure',
  'ClusterMaintenance',
  'AccountBorrowOutstanding',
  'WouldExceedMaxBlockCostLimit',
  'UnsupportedVersion',
  'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit',
  'WouldExceedAccountDataBlockLimit',
  'TooManyAccountLocks',
  'AddressLookupTableNotFound',
  'InvalidAddressLookupTableOwner',
  'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex',
  'InvalidRentPayingAccount',
  'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit',
  'MaxLoadedAccountsDataSizeExceeded',
  'InvalidLoadedAccountsDataSizeLimit',
  'ResanitizationNeeded',
  'UnbalancedTransaction',
  'ProgramCacheHitMaxLimit',
  'CommitCancelled',
] as const;

/** litesvm's fieldless InstructionError, by value (`InstructionErrorFieldless`, as above). */
const INSTRUCTION_ERROR_NAMES = [
  'GenericError',
  'InvalidArgument',
  'InvalidInstructionData',
  'InvalidAccountData',
  'AccountDataTooSmall',
  'InsufficientFunds',
  'IncorrectProgramId',
  'MissingRequiredSignature',
  'AccountAlreadyInitialized',
  'UninitializedAccount',
  'UnbalancedInstruction',
  'ModifiedProgramId',
  'ExternalAccountLamportSpend',
  'ExternalAccountDataModified',
  'ReadonlyLamportChange',
  'ReadonlyDataModified',
  'DuplicateAccountIndex',
  'ExecutableModified',
  'RentEpochModified',
  'NotEnoughAccountKeys',
  'AccountDataSizeChanged',
  'AccountNotExecutable',
  'AccountBorrowFailed',
  'AccountBorrowOutstanding',
  'DuplicateAccountOutOfSync',
  'InvalidError',
  'ExecutableDataModified',
  'ExecutableLamportChange',
  'ExecutableAccountNotRentExempt',
  'UnsupportedProgramId',
  'CallDepth',
  'MissingAccount',
  'ReentrancyNotAllowed',
  'MaxSeedLengthExceeded',
  'InvalidSeeds',
  'InvalidRealloc',
  'ComputationalBudgetExceeded',
  'PrivilegeEscalation',
  'ProgramEnvironmentSetupFailure',
  'ProgramFailedToComplete',
  'ProgramFailedToCompile',
  'Immutable',
  'IncorrectAuthority',
  'AccountNotRentExempt',
  'InvalidAccountOwner',
  'ArithmeticOverflow',
  'UnsupportedSysvar',
  'IllegalOwner',
  'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded',
  'MaxInstructionTraceLengthExceeded',
  'BuiltinProgramsMustConsumeComputeUnits',
  'BorshIoError',
] as const;

type InstructionError = Extract<TransactionError, { InstructionError: unknown }>['InstructionError'][1];

/** A failed transaction's error as JSON-RPC writes it (`"BlockhashNotFound"`,
 * `{"InstructionError":[0,{"Custom":17}]}`…), the form kit's TransactionError describes. */
export function rpcTransactionError(error: ReturnType<FailedTransactionMetadata['err']>): TransactionError {
  if (typeof error === 'number') return (TRANSACTION_ERROR_NAMES[error] ?? 'SanitizeFailure') as TransactionError;
  if (error instanceof TransactionErrorInstructionError) return { InstructionError: [error.index, rpcInstructionError(error.err())] };
  if (error instanceof TransactionErrorDuplicateInstruction) return { DuplicateInstruction: error.index };
  if (error instanceof TransactionErrorInsufficientFundsForRent) return { InsufficientFundsForRent: { account_index: error.accountIndex } };
  return { ProgramExecutionTemporarilyRestricted: { account_index: error.accountIndex } };
}

function rpcInstructionError(error: ReturnType<TransactionErrorInstructionError['err']>): InstructionError {
  if (typeof error === 'number') return (INSTRUCTION_ERROR_NAMES[error] ?? 'GenericError') as InstructionError;
  if (error instanceof InstructionErrorCustom) return { Custom: error.code };
  return 'BorshIoError';
}

/** What Agave's Display of a TransactionError says, for the messages that name one
 * ("Transaction simulation failed: Blockhash not found"); the variant's name where none is listed. */
const TRANSACTION_ERROR_MESSAGES: Partial<Record<string, string>> = {
  AccountInUse: 'Account in use',
  AccountLoadedTwice: 'Account loaded twice',
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  ProgramAccountNotFound: 'Attempt to load a program that does not exist',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  InvalidAccountForFee: 'This account may not be used to pay transaction fees',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  MissingSignatureForFee: 'Transaction requires a fee but has no signature present',
  InvalidAccountIndex: 'Transaction contains an invalid account reference',
  SignatureFailure: 'Transaction did not pass signature verification',
  InvalidProgramForExecution: 'This program may not be used for executing instructions',
  SanitizeFailure: 'Transaction failed to sanitize accounts offsets correctly',
};

const INSTRUCTION_ERROR_MESSAGES: Partial<Record<string, string>> = {
  GenericError: 'generic instruction error',
  InvalidArgument: 'invalid program argument',
  InvalidInstructionData: 'invalid instruction data',
  InvalidAccountData: 'invalid account data for instruction',
  AccountDataTooSmall: 'account data too small for instruction',
  InsufficientFunds: 'insufficient funds for instruction',
  IncorrectProgramId: 'incorrect program id for instruction',
  MissingRequiredSignature: 'missing required signature for instruction',
  AccountAlreadyInitialized: 'instruction requires an uninitialized account',
  UninitializedAccount: 'instruction requires an initialized account',
  IllegalOwner: 'Provided owner is not allowed',
};

export function transactionErrorMessage(error: TransactionError): string {
  if (typeof error === 'string') return TRANSACTION_ERROR_MESSAGES[error] ?? error;
  if ('InstructionError' in error) {
    const [index, cause] = error.InstructionError;
    const what = typeof cause === 'string' ? (INSTRUCTION_ERROR_MESSAGES[cause] ?? cause) : `custom program error: 0x${cause.Custom.toString(16)}`;
    return `Error processing Instruction ${index}: ${what}`;
  }
  if ('InsufficientFundsForRent' in error) return `Transaction results in an account (${error.InsufficientFundsForRent.account_index}) with insufficient funds for rent`;
  return JSON.stringify(error);
}
