import { createHash, randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChainBlock, ChainReader, ReceiptResult, TokenTransfer, TransactionReceipt } from '#domain/chain';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { tronAddressFromHex, tronAddressFromPublicKey } from '#domain/tron-address';
import { toBigInt } from '../dynamo/client.ts';
import { ENTITY, keys } from '../dynamo/keys.ts';

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
}

export interface SandboxTransferInput {
  contract: string;
  from: string;
  to: string;
  amount: bigint;
  /** The receipt the transaction gets: SUCCESS unless a test wants a failed one. */
  result?: ReceiptResult;
  /** A broadcast transaction keeps its own id; a sandbox:pay transfer gets a random one. */
  txHash?: string;
}

/**
 * Withdrawals to this address fail on the sandbox chain (receipt REVERT), so integrators can
 * exercise the failure path: the withdrawal ends `failed` and its funds return to `available`.
 */
export const SANDBOX_FAILING_ADDRESS = 'TVWFLU6jVhtYemb8PkJW62jffPRDaN3zNQ';

export class BroadcastRefused extends Error {}

/** TRX moves on the sandbox chain as transfers of this pseudo-contract, so one table holds both. */
export const SANDBOX_TRX = 'TRX';

const TRC20_TRANSFER_SELECTOR = 'a9059cbb';

export class SandboxChain implements ChainReader {
  private genesisMs: number | undefined;
  private readonly now: () => number;

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly options: SandboxChainOptions,
  ) {
    this.now = options.now ?? Date.now;
  }

  async latestBlock(): Promise<ChainBlock> {
    return this.block(await this.latestNumber());
  }

  async solidifiedBlock(): Promise<ChainBlock> {
    return this.block(Math.max(0, (await this.latestNumber()) - (this.options.solidifyAfter - 1)));
  }

  async transfers(contract: string, fromBlock: number, toBlock: number): Promise<TokenTransfer[]> {
    const latest = await this.latestNumber();
    const upTo = Math.min(toBlock, latest);
    if (upTo < fromBlock) return [];
    const transfers: TokenTransfer[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
          ExpressionAttributeValues: {
            ':pk': 'SANDBOX_TRANSFERS',
            ':from': keys.sandboxBlockBound(fromBlock),
            ':to': `${keys.sandboxBlockBound(upTo)}~`,
          },
          ConsistentRead: true,
          ExclusiveStartKey: start,
        }),
      );
      for (const item of page.Items ?? []) {
        if (item.contract !== contract) continue;
        transfers.push({
          txHash: item.txHash as string,
          eventIndex: Number(toBigInt(item.eventIndex)),
          blockNumber: Number(toBigInt(item.blockNumber)),
          contract: item.contract as string,
          from: item.from as string,
          to: item.to as string,
          amount: toBigInt(item.amount),
        });
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return transfers;
  }

  async receipt(txHash: string): Promise<TransactionReceipt | null> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sandboxTransaction(txHash), ConsistentRead: true }));
    if (!Item) return null;
    const blockNumber = Number(toBigInt(Item.blockNumber));
    // Not mined yet: the chain does not know it.
    if (blockNumber > (await this.latestNumber())) return null;
    return { txHash, blockNumber, result: Item.result as ReceiptResult };
  }

  /** The receipt once its block has solidified, as TRON's solidity node answers. */
  async solidifiedReceipt(txHash: string): Promise<TransactionReceipt | null> {
    const receipt = await this.receipt(txHash);
    return receipt && receipt.blockNumber <= (await this.solidifiedBlock()).number ? receipt : null;
  }

  /** Puts a token transfer into the next block, as a wallet's broadcast would. */
  async submitTransfer(input: SandboxTransferInput): Promise<{ txHash: string; blockNumber: number }> {
    const txHash = input.txHash ?? randomBytes(32).toString('hex');
    const blockNumber = (await this.latestNumber()) + 1;
    const createdAt = new Date(this.now()).toISOString();
    await this.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: this.tableName,
              Item: {
                ...keys.sandboxTransfer(blockNumber, txHash, 0),
                type: ENTITY.sandboxTransfer,
                txHash,
                eventIndex: 0,
                blockNumber,
                contract: input.contract,
                from: input.from,
                to: input.to,
                amount: input.amount,
                createdAt,
              },
            },
          },
          {
            Put: {
              TableName: this.tableName,
              Item: { ...keys.sandboxTransaction(txHash), type: ENTITY.sandboxTransaction, txHash, blockNumber, result: input.result ?? 'SUCCESS', createdAt },
              // One transaction per id, as on TRON: a rebroadcast cannot add a second transfer.
              ConditionExpression: 'attribute_not_exists(PK)',
            },
          },
        ],
      }),
    );
    return { txHash, blockNumber };
  }

  /**
   * Takes a signed TRC-20 transfer as TRON's broadcast API would: the id must be the hash of the
   * raw data, the signature must recover to the owner, it must not have expired, and the same id
   * twice is a duplicate. Transfers to SANDBOX_FAILING_ADDRESS get a REVERT receipt.
   */
  async broadcast(signed: Record<string, unknown>): Promise<'accepted' | 'duplicate'> {
    const tx = signed as {
      txID?: string;
      raw_data_hex?: string;
      signature?: string[];
      raw_data?: { expiration?: number; contract?: { type?: string; parameter?: { value?: { owner_address?: string; contract_address?: string; data?: string } } }[] };
    };
    const txId = tx.txID ?? '';
    if (!/^[0-9a-f]{64}$/.test(txId) || !tx.raw_data_hex || Buffer.from(sha256(Buffer.from(tx.raw_data_hex, 'hex'))).toString('hex') !== txId) {
      throw new BroadcastRefused('TXID_MISMATCH: txID is not the SHA-256 of raw_data_hex');
    }
    const contract = tx.raw_data?.contract?.[0];
    const call = contract?.parameter?.value as { owner_address?: string; contract_address?: string; data?: string; to_address?: string; amount?: number } | undefined;
    const isTrx = contract?.type === 'TransferContract' && call?.owner_address && call.to_address && Number.isInteger(call.amount) && call.amount! > 0;
    const isTrc20 = call?.owner_address && call.contract_address && call.data?.startsWith(TRC20_TRANSFER_SELECTOR) && call.data.length === 8 + 128;
    if (!call || (!isTrx && !isTrc20)) {
      throw new BroadcastRefused('CONTRACT_VALIDATE_ERROR: neither a TRX transfer nor a TRC-20 transfer(address,uint256)');
    }
    const owner = tronAddressFromHex(call.owner_address!);
    const signature = Buffer.from(tx.signature?.[0] ?? '', 'hex');
    if (signature.length !== 65 || recoverSigner(signature, Buffer.from(txId, 'hex')) !== owner) {
      throw new BroadcastRefused('SIGERROR: the signature does not recover to the owner address');
    }
    if ((tx.raw_data?.expiration ?? 0) <= this.now()) throw new BroadcastRefused('TRANSACTION_EXPIRATION_ERROR');
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sandboxTransaction(txId), ConsistentRead: true }));
    if (Item) return 'duplicate';
    const to = isTrx ? tronAddressFromHex(call.to_address!) : tronAddressFromHex(`41${call.data!.slice(8 + 24, 8 + 64)}`);
    try {
      await this.submitTransfer({
        txHash: txId,
        contract: isTrx ? SANDBOX_TRX : tronAddressFromHex(call.contract_address!),
        from: owner,
        to,
        amount: isTrx ? BigInt(call.amount!) : BigInt(`0x${call.data!.slice(8 + 64)}`),
        result: to === SANDBOX_FAILING_ADDRESS ? 'REVERT' : 'SUCCESS',
      });
      return 'accepted';
    } catch (error) {
      if ((error as Error).name === 'TransactionCanceledException') return 'duplicate';
      throw error;
    }
  }

  /**
   * What each address holds of `contract` on the sandbox chain, from its successful mined
   * transfers. The sandbox does not refuse a transfer for want of funds: this is bookkeeping for
   * sweeps and reconciliation, not a balance check.
   */
  async balances(contract: string): Promise<Map<string, bigint>> {
    const latest = await this.latestNumber();
    const all = await this.transfers(contract, 0, latest);
    const failed = new Set<string>();
    for (const transfer of all) {
      const receipt = await this.receipt(transfer.txHash);
      if (receipt?.result !== 'SUCCESS') failed.add(transfer.txHash);
    }
    const balances = new Map<string, bigint>();
    for (const transfer of all) {
      if (failed.has(transfer.txHash)) continue;
      balances.set(transfer.to, (balances.get(transfer.to) ?? 0n) + transfer.amount);
      balances.set(transfer.from, (balances.get(transfer.from) ?? 0n) - transfer.amount);
    }
    return balances;
  }

  async tokenBalance(contract: string, address: string): Promise<bigint> {
    return (await this.balances(contract)).get(address) ?? 0n;
  }

  /** TRX held by an address, in sun (the sandbox keeps TRX as a token of its own). */
  async trxBalance(address: string): Promise<bigint> {
    return this.tokenBalance(SANDBOX_TRX, address);
  }

  /** Any number of addresses from one read of the chain. */
  async tokenBalances(contract: string, addresses: string[]): Promise<Map<string, bigint>> {
    const all = await this.balances(contract);
    return new Map(addresses.map((address) => [address, all.get(address) ?? 0n]));
  }

  /** A fork that drops the transaction: its transfer and receipt are gone from the chain. */
  async dropTransaction(txHash: string): Promise<void> {
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sandboxTransaction(txHash), ConsistentRead: true }));
    if (!Item) return;
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.sandboxTransfer(Number(toBigInt(Item.blockNumber)), txHash, 0) }));
    await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: keys.sandboxTransaction(txHash) }));
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
    const { Item } = await this.db.send(new GetCommand({ TableName: this.tableName, Key: keys.sandboxGenesis(), ConsistentRead: true }));
    if (Item) return (this.genesisMs = Number(toBigInt(Item.genesisMs)));
    const genesisMs = this.now();
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...keys.sandboxGenesis(), type: ENTITY.sandboxGenesis, genesisMs, createdAt: new Date(genesisMs).toISOString() },
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      );
      return (this.genesisMs = genesisMs);
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      this.genesisMs = undefined;
      return this.genesis();
    }
  }
}

/** TRON signatures are r‖s‖v with v = 27 + recovery id; noble wants recovery‖r‖s. */
function recoverSigner(signature: Buffer, txId: Buffer): string | null {
  try {
    const recovered = new Uint8Array(65);
    recovered[0] = signature[64]! - 27;
    recovered.set(signature.subarray(0, 64), 1);
    return tronAddressFromPublicKey(secp256k1.recoverPublicKey(recovered, txId, { prehash: false }));
  } catch {
    return null;
  }
}
