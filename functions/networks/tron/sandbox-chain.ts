import { createHash, randomBytes } from 'node:crypto';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChainBlock, ReceiptResult, TokenTransfer, TransactionReceipt } from '#functions/networks/chain';
import type { Chain } from '#functions/networks/network';
import { sandboxGenesisItem, sandboxTransactionItem, sandboxTransferItem, sandboxTreasuryGrantItem, type BalanceMove } from '../../adapters/dynamo/items/sandbox-chain.ts';
import { batchGetAll, heldCondition, itemsUnder, queryAll, readItem } from '../../adapters/dynamo/queries.ts';
import { BroadcastRefused, decodeSignedTransfer, SANDBOX_TRX } from './sandbox-broadcast.ts';
import { SANDBOX_FEES, SANDBOX_TREASURY_TRX_SUN, SandboxBalances, moveItem } from './sandbox-balances.ts';
import { tron } from './network.ts';
import { inCoin } from '../../shared/money.ts';
import { balanceContractOf, isSandboxToken, SANDBOX_ISSUER, SANDBOX_UPGRADED_USDT, SANDBOX_USDT, SandboxToken, type TokenRules } from './sandbox-token.ts';

export { BroadcastRefused, SANDBOX_TRX };
export { SANDBOX_ISSUER, SANDBOX_UPGRADED_USDT, SANDBOX_USDT };

/** Times a transfer is written again when another transaction on the same balance got in first. */
const CONFLICT_RETRIES = 8;

/**
 * A TRON stand-in whose blocks are a function of time and whose transfers live in DynamoDB, so the
 * same scanner code runs locally and on the deployed sandbox stage with no producer process:
 * block n is produced at genesis + n × interval; only blocks with transfers are stored. A block
 * solidifies once `solidifyAfter` blocks (itself included) stand on top of it, as on TRON.
 */
export interface SandboxChainOptions {
  blockIntervalMs: number;
  /** Confirmations (the block itself included) after which a block is solidified: 19 on TRON. */
  solidifyAfter: number;
  /** The clock; tests move it to produce blocks at once. */
  now?: () => number;
  /** The hot wallet's address: granted SANDBOX_TREASURY_TRX_SUN of TRX once, before the first
   * broadcast, as an operator funds a hot wallet (functions/networks/tron/sandbox-balances.ts). */
  treasury?: () => Promise<string>;
}

export interface SandboxTransferInput {
  contract: string;
  from: string;
  to: string;
  amount: bigint;
  /** The receipt the transaction gets: SUCCESS unless a test wants a failed one. */
  result?: ReceiptResult;
}

/** How a broadcast transaction is executed: who pays, what, and the TRX fee it burns. */
interface Execution {
  txHash: string;
  /** The sender's debit is checked against its balance (a transaction Cambio signed). */
  checked: boolean;
  feeSun: bigint;
  /** Extra items written in the same transaction (the treasury grant's marker). */
  extra?: Record<string, unknown>[];
}

/**
 * Withdrawals to this address fail on the sandbox chain (receipt REVERT), so integrators can
 * exercise the failure path: the withdrawal ends `failed` and its funds return to `available`.
 */
export const SANDBOX_FAILING_ADDRESS = 'TVWFLU6jVhtYemb8PkJW62jffPRDaN3zNQ';

/** Where the treasury's TRX comes from: TRON's zero address stands for the world outside the sandbox. */
const OUTSIDE_WORLD = 'T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb';

export class SandboxChain implements Chain {
  private genesisMs: number | undefined;
  /** The grant under way or made: broadcasts side by side (the sender's) share the one grant. */
  private treasuryGrant: Promise<void> | undefined;
  private readonly now: () => number;
  private readonly balanceBook: SandboxBalances;
  private readonly token: SandboxToken;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: SandboxChainOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.balanceBook = new SandboxBalances(db, tableName);
    this.token = new SandboxToken(db, tableName);
  }

  async latestBlock(): Promise<ChainBlock> {
    return this.block(await this.latestNumber());
  }

  async finalBlock(): Promise<ChainBlock> {
    return this.block(Math.max(0, (await this.latestNumber()) - (this.options.solidifyAfter - 1)));
  }

  async transfers(contract: string, fromBlock: number, toBlock: number): Promise<TokenTransfer[]> {
    return (await this.minedTransfers(fromBlock, toBlock)).filter((transfer) => transfer.contract === contract);
  }

  /** Every contract's transfers in blocks `fromBlock` to `toBlock` that are mined by now. */
  private async minedTransfers(fromBlock: number, toBlock: number): Promise<TokenTransfer[]> {
    const upTo = Math.min(toBlock, await this.latestNumber());
    if (upTo < fromBlock) return [];
    const range = sandboxTransferItem.blocks(fromBlock, upTo);
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': sandboxTransferItem.partition, ':from': range.from, ':to': range.to },
      ConsistentRead: true,
    });
    return items.map(sandboxTransferItem.fromItem);
  }

  async receipt(txHash: string): Promise<TransactionReceipt | null> {
    const stored = await readItem(this.db, this.tableName, sandboxTransactionItem.key(txHash));
    if (!stored) return null;
    const { blockNumber, result, moves, feeSun } = sandboxTransactionItem.fromItem(stored);
    // Not mined yet: the chain does not know it.
    if (blockNumber > (await this.latestNumber())) return null;
    // Its Transfer events, from the balances it moved: every credit of a token other than TRX.
    const tokenTransfers = moves.filter((move) => move.contract !== SANDBOX_TRX && BigInt(move.delta) > 0n).map((move) => ({ contract: move.contract, to: move.address, amount: BigInt(move.delta) }));
    return { txHash, blockNumber, result, tokenTransfers, ...(feeSun !== null && { feePayerCost: inCoin(tron.feeAsset, feeSun) }) };
  }

  /** The receipt once its block has solidified, as TRON's solidity node answers. */
  async finalReceipt(txHash: string): Promise<TransactionReceipt | null> {
    const receipt = await this.receipt(txHash);
    return receipt && receipt.blockNumber <= (await this.finalBlock()).number ? receipt : null;
  }

  /** Puts a token transfer from the outside world into the next block, as a customer's wallet
   * would send it: the recipient is credited (unless `result` fails it, or the token's issuer has
   * frozen the payer or paused the token: REVERT), the payer not modelled. */
  async submitTransfer(input: SandboxTransferInput): Promise<{ txHash: string; blockNumber: number }> {
    const outcome = await this.record(input, input.result ?? 'SUCCESS', { txHash: randomBytes(32).toString('hex'), checked: false, feeSun: 0n });
    if (outcome === 'duplicate') throw new Error('random transaction id collided');
    return outcome;
  }

  /**
   * Writes the transfer, its receipt and the balances it moves in one DynamoDB transaction, in the
   * next block. A checked debit the sender cannot cover is executed as TRON would: mined REVERT
   * (USDT short: the fee still burns) or OUT_OF_ENERGY (TRX short for the fee: nothing moves). The
   * sandbox's USDT obeys its issuer (sandbox-token.ts), read as the transfer is executed: paused,
   * or the sender frozen, is REVERT too; a fee goes to the issuer with a Transfer event of its own
   * before the recipient's, as TetherToken emits them; once deprecated, the events are the
   * upgraded contract's.
   */
  private async record(
    input: SandboxTransferInput,
    requested: ReceiptResult,
    execution: Execution,
    /** The issuer's rules as read with the broadcast's duplicate check; read here when not given. */
    known?: TokenRules | 'no_contract' | null,
    conflicts = 0,
  ): Promise<{ txHash: string; blockNumber: number } | 'duplicate'> {
    const { txHash } = execution;
    const rules = known === undefined ? await this.token.rulesFor(input.contract, input.from) : known;
    // TRON's node refuses a call to an address without a contract before it is ever mined.
    if (rules === 'no_contract') throw new BroadcastRefused(`CONTRACT_VALIDATE_ERROR: No contract or not a valid smart contract at ${input.contract}`);
    const result = requested === 'SUCCESS' && rules?.halted ? 'REVERT' : requested;
    const fee = result === 'SUCCESS' && rules ? rules.fee(input.amount) : 0n;
    const blockNumber = (await this.latestNumber()) + 1;
    const createdAt = new Date(this.now()).toISOString();
    // The outside world's wallets are not modelled: only the recipient of its payment moves.
    const moves = mergeMoves(this.moves(input, result, execution.feeSun, fee).filter((move) => execution.checked || move.address !== input.from));
    const events = this.events(input, { txHash, blockNumber, emitter: rules?.emitter ?? input.contract, fee });
    const items = [
      ...events.map((event) => ({ Put: { TableName: this.tableName, Item: sandboxTransferItem.toItem(event, createdAt) } })),
      {
        Put: {
          TableName: this.tableName,
          Item: sandboxTransactionItem.toItem({ txHash, blockNumber, result, moves, feeSun: execution.checked ? execution.feeSun : 0n }, createdAt),
          // One transaction per id, as on TRON: a rebroadcast cannot add a second transfer.
          ConditionExpression: 'attribute_not_exists(PK)',
        },
      },
      ...moves.map((move) => moveItem(this.tableName, move, execution.checked)),
      ...(execution.extra ?? []).map((Item) => ({ Put: { TableName: this.tableName, Item, ConditionExpression: 'attribute_not_exists(PK)' } })),
    ];
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return { txHash, blockNumber };
    } catch (error) {
      if (!(error instanceof TransactionCanceledException)) throw error;
      // Another transfer moving the same balance at that moment (the sender broadcasts side by
      // side; DynamoDB refuses one of two transactions on one item): written again, in a later block.
      if ((error.CancellationReasons ?? []).some((reason) => reason.Code === 'TransactionConflict') && conflicts < CONFLICT_RETRIES) {
        await new Promise((resolve) => setTimeout(resolve, 10 + Math.random() * 40 * (conflicts + 1)));
        return this.record(input, requested, execution, rules, conflicts + 1);
      }
      const failed = (error.CancellationReasons ?? []).findIndex((reason) => reason.Code === 'ConditionalCheckFailed');
      if (failed === events.length) return 'duplicate';
      const move = moves[failed - events.length - 1];
      if (!move) throw error;
      if (input.contract === SANDBOX_TRX) throw new BroadcastRefused('CONTRACT_VALIDATE_ERROR: balance is not sufficient');
      // The fee's TRX is short: nothing happens but the failed receipt (no move, so this ends). The
      // token is short: REVERT, whose only move is the fee (short too: OUT_OF_ENERGY next).
      if (move.contract === SANDBOX_TRX) return this.record(input, 'OUT_OF_ENERGY', { ...execution, feeSun: 0n }, rules);
      return this.record(input, 'REVERT', execution, rules);
    }
  }

  /** The balance changes a transfer makes: the amount (when it succeeds; less the token's fee,
   * which its issuer gets) and the TRX fee burnt. */
  private moves(input: SandboxTransferInput, result: ReceiptResult, feeSun: bigint, tokenFee: bigint): BalanceMove[] {
    const moves: BalanceMove[] = [];
    const book = balanceContractOf(input.contract);
    const trxOut = input.contract === SANDBOX_TRX && result === 'SUCCESS' ? input.amount : 0n;
    if (result === 'SUCCESS' && input.contract !== SANDBOX_TRX) moves.push({ contract: book, address: input.from, delta: String(-input.amount) });
    // TRX amount and fee come off one item: DynamoDB allows one operation per item in a transaction.
    if (feeSun + trxOut > 0n) moves.push({ contract: SANDBOX_TRX, address: input.from, delta: String(-(feeSun + trxOut)) });
    if (result === 'SUCCESS') moves.push({ contract: book, address: input.to, delta: String(input.amount - tokenFee) });
    if (tokenFee > 0n) moves.push({ contract: book, address: SANDBOX_ISSUER, delta: String(tokenFee) });
    return moves;
  }

  /** The Transfer events a transfer emits: with a fee, TetherToken's `Transfer(from, owner, fee)`
   * first, then `Transfer(from, to, amount - fee)`; otherwise the one transfer, failed ones too. */
  private events(input: SandboxTransferInput, at: { txHash: string; blockNumber: number; emitter: string; fee: bigint }): TokenTransfer[] {
    const event = { txHash: at.txHash, blockNumber: at.blockNumber, contract: at.emitter, from: input.from };
    if (at.fee === 0n) return [{ ...event, eventIndex: 0, to: input.to, amount: input.amount }];
    return [
      { ...event, eventIndex: 0, to: SANDBOX_ISSUER, amount: at.fee },
      { ...event, eventIndex: 1, to: input.to, amount: input.amount - at.fee },
    ];
  }

  /**
   * Takes a signed TRC-20 transfer as TRON's broadcast API would: the id must be the hash of the
   * raw data, the signature must recover to the owner, it must not have expired, and the same id
   * twice is a duplicate. Transfers to SANDBOX_FAILING_ADDRESS get a REVERT receipt, and the
   * sandbox's USDT follows its issuer's controls (record); a transfer through the upgraded contract
   * before the token is deprecated is refused, as a call to an address holding no contract.
   */
  async broadcast(signed: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    const { txId, transfer, isTrx } = decodeSignedTransfer(signed, this.now());
    // One read, as a payout costs on TRON: whether the chain has the transaction already and, for
    // the sandbox's USDT, what its issuer has set.
    const transactionKey = sandboxTransactionItem.key(txId);
    const ruleKeys = this.token.ruleKeys(transfer.contract, transfer.from);
    const read =
      ruleKeys.length === 0
        ? [await readItem(this.db, this.tableName, transactionKey)].filter((item) => item !== null)
        : await batchGetAll(this.db, this.tableName, [transactionKey, ...ruleKeys], { consistent: true });
    if (read.some((item) => item.PK === transactionKey.PK && item.SK === transactionKey.SK)) return 'duplicate';
    await this.grantTreasury();
    const execution = { txHash: txId, checked: true, feeSun: isTrx ? await this.trxTransferFee(transfer.to) : SANDBOX_FEES.trc20TransferSun };
    const rules = this.token.rulesFrom(transfer.contract, transfer.from, read);
    const outcome = await this.record(transfer, transfer.to === SANDBOX_FAILING_ADDRESS ? 'REVERT' : 'SUCCESS', execution, rules);
    return outcome === 'duplicate' ? 'duplicate' : 'accepted';
  }

  /** What a TRX transfer to `to` burns: more where it creates the account. */
  private async trxTransferFee(to: string): Promise<bigint> {
    return (await this.balanceBook.ever(SANDBOX_TRX, to)) ? SANDBOX_FEES.trxTransferSun : SANDBOX_FEES.accountCreationSun;
  }

  /** The hot wallet's TRX, granted once per chain (a marker item makes it once across processes). */
  private grantTreasury(): Promise<void> {
    if (!this.options.treasury) return Promise.resolve();
    this.treasuryGrant ??= this.grantTreasuryOnce(this.options.treasury).catch((error: unknown) => {
      this.treasuryGrant = undefined; // tried again by the next broadcast
      throw error;
    });
    return this.treasuryGrant;
  }

  private async grantTreasuryOnce(treasury: () => Promise<string>): Promise<void> {
    const address = await treasury();
    const marker = sandboxTreasuryGrantItem.toItem(address, SANDBOX_TREASURY_TRX_SUN);
    const granted = await readItem(this.db, this.tableName, sandboxTreasuryGrantItem.key(address));
    if (!granted) {
      try {
        await this.record({ contract: SANDBOX_TRX, from: OUTSIDE_WORLD, to: address, amount: SANDBOX_TREASURY_TRX_SUN }, 'SUCCESS', {
          txHash: randomBytes(32).toString('hex'),
          checked: false,
          feeSun: 0n,
          extra: [marker],
        });
      } catch (error) {
        // Another process granted it first: its marker refused ours.
        if (!(error instanceof TransactionCanceledException)) throw error;
      }
    }
  }

  /** What each address holds of `contract` on the sandbox chain (the payers of the outside world
   * aside). The sandbox's USDT has one set of balances, read through either of its contracts. */
  async balances(contract: string): Promise<Map<string, bigint>> {
    await this.genesis();
    return this.balanceBook.all(balanceContractOf(contract));
  }

  async tokenBalance(contract: string, address: string): Promise<bigint> {
    await this.genesis();
    return this.balanceBook.of(balanceContractOf(contract), address);
  }

  /** TRX held by an address, in sun (the sandbox keeps TRX as a token of its own). The hot wallet's
   * grant is made first: the sender asks its TRX before its first broadcast. */
  async feeBalance(address: string): Promise<bigint> {
    await this.grantTreasury();
    return this.tokenBalance(SANDBOX_TRX, address);
  }

  /** Any number of addresses from one read of the chain. */
  async tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const all = await this.balances(contract);
    return new Map(addresses.map((address) => [address, all.get(address) ?? 0n]));
  }

  /** TRON's USDT has USDT's own 6 decimals: its base units are the minor units. */
  usdtBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    return this.tokenBalances(contract, addresses);
  }

  /** Those of `addresses` the sandbox's USDT issuer has frozen, through either of its contracts;
   * none for any other contract, which has no issuer. */
  async frozenAmong(contract: string, addresses: string[]): Promise<Set<string>> {
    return isSandboxToken(contract) ? this.token.frozenAmong(addresses) : new Set();
  }

  /** Whether the sandbox's USDT issuer has paused the token (either contract); false for any other. */
  async tokenPaused(contract: string): Promise<boolean> {
    return isSandboxToken(contract) && (await this.token.controls()).paused;
  }

  /** Once deprecated, the upgraded contract emits every Transfer event, those through the old one too. */
  async usdtContracts(contract: string): Promise<string[]> {
    if (!isSandboxToken(contract)) return [contract];
    const upgraded = (await this.token.controls()).upgradedContract;
    return upgraded && upgraded !== contract ? [contract, upgraded] : [contract];
  }

  /** A fork that drops the transaction: its transfers and receipt are gone from the chain. */
  async dropTransaction(txHash: string): Promise<void> {
    const stored = await readItem(this.db, this.tableName, sandboxTransactionItem.key(txHash));
    if (!stored) return;
    const transaction = sandboxTransactionItem.fromItem(stored);
    for (const event of await itemsUnder(this.db, this.tableName, sandboxTransferItem.ofTransaction(transaction.blockNumber, txHash))) {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: { PK: event.PK as string, SK: event.SK as string } }));
    }
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: sandboxTransactionItem.key(txHash) }));
    await this.balanceBook.undo(transaction.moves);
  }

  /**
   * A chain stored without balances (local .data written without them): its balances are
   * computed once from its history — every successful transfer, payer debited — and kept from then on.
   */
  private async keepBalances(): Promise<void> {
    const byContract = new Map<string, Map<string, bigint>>();
    // One read of the whole history, every contract's transfers at once.
    for (const transfer of await this.minedTransfers(0, Infinity)) {
      if ((await this.receipt(transfer.txHash))?.result !== 'SUCCESS') continue;
      const book = balanceContractOf(transfer.contract);
      const balances = byContract.get(book) ?? new Map<string, bigint>();
      byContract.set(book, balances);
      balances.set(transfer.to, (balances.get(transfer.to) ?? 0n) + transfer.amount);
      balances.set(transfer.from, (balances.get(transfer.from) ?? 0n) - transfer.amount);
    }
    await this.balanceBook.rebuild(byContract);
    await this.db.send(new UpdateCommand({ TableName: this.tableName, Key: sandboxGenesisItem.key(), UpdateExpression: 'SET balancesKept = :kept', ExpressionAttributeValues: { ':kept': true } }));
  }

  private block(number: number): ChainBlock {
    return {
      number,
      hash: createHash('sha256').update(`cambio-sandbox:${number}`).digest('hex'),
      timestamp: new Date((this.genesisMs ?? 0) + number * this.options.blockIntervalMs).toISOString(),
    };
  }

  private async latestNumber(): Promise<number> {
    const genesis = await this.genesis();
    return Math.max(0, Math.floor((this.now() - genesis) / this.options.blockIntervalMs));
  }

  /** Genesis is written once per table, so block numbers keep counting across restarts. */
  private async genesis(): Promise<number> {
    if (this.genesisMs !== undefined) return this.genesisMs;
    const stored = await readItem(this.db, this.tableName, sandboxGenesisItem.key());
    if (stored) {
      const { genesisMs, balancesKept } = sandboxGenesisItem.fromItem(stored);
      this.genesisMs = genesisMs;
      if (!balancesKept) await this.keepBalances();
      return genesisMs;
    }
    const genesisMs = this.now();
    const written = await heldCondition(
      this.db.send(new PutCommand({ TableName: this.tableName, Item: sandboxGenesisItem.toItem(genesisMs), ConditionExpression: 'attribute_not_exists(PK)' })),
    );
    // Another process wrote genesis first: its time is the chain's.
    return written ? (this.genesisMs = genesisMs) : this.genesis();
  }
}

/** One move per balance: DynamoDB takes one operation per item in a transaction, and a fee's
 * issuer may be the transfer's recipient too. */
function mergeMoves(moves: BalanceMove[]): BalanceMove[] {
  const merged = new Map<string, BalanceMove>();
  for (const move of moves) {
    const key = `${move.contract}\u0000${move.address}`;
    const earlier = merged.get(key);
    merged.set(key, earlier ? { ...earlier, delta: String(BigInt(earlier.delta) + BigInt(move.delta)) } : move);
  }
  return [...merged.values()];
}
