import { BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sandboxBalanceItem, type BalanceMove } from '../../adapters/dynamo/items/sandbox-chain.ts';
import { queryAll, readItem } from '../../adapters/dynamo/queries.ts';
import { TableStore } from '../../adapters/dynamo/table-store.ts';

/**
 * What the sandbox chain models of TRON's accounts, so the sender and the sweeper meet there what
 * they meet on TRON: every address's USDT (TRC-20) and TRX, moved in the same DynamoDB
 * transaction as the transfer that moves them.
 *
 * - A transaction Cambio signs and broadcasts is executed like TRON executes it: a TRC-20 transfer
 *   burns SANDBOX_FEES.trc20TransferSun of the sender's TRX (energy) and moves the USDT; without
 *   the USDT it is mined with receipt REVERT (the fee still burns); without the TRX for the fee it
 *   is mined with OUT_OF_ENERGY (nothing moves). A TRX transfer burns SANDBOX_FEES.trxTransferSun
 *   (bandwidth), or SANDBOX_FEES.accountCreationSun where it makes its recipient an account (one
 *   that never held TRX), and is refused at broadcast when the sender cannot cover amount and fee,
 *   as TRON's node refuses it (CONTRACT_VALIDATE_ERROR).
 * - A transfer submitted directly (`npm run sandbox:pay`, tests) is the outside world paying in:
 *   the payer's wallet is not modelled, only the recipient is credited.
 * - The hot wallet, Cambio's treasury, gets SANDBOX_TREASURY_TRX_SUN of TRX once, as an operator
 *   funds a hot wallet before it pays fees. It gets no USDT: its USDT comes from swept deposits,
 *   so locally too a withdrawal waits for the float and reconciliation balances to zero.
 */
export const SANDBOX_FEES = {
  /** ~130k energy at 100 sun: a USDT transfer to an address that holds none (third-party figure, tron-notes.md). */
  trc20TransferSun: 13_000_000n,
  /** A TRX transfer's ~268 bandwidth points burnt at 1,000 sun each: the sender's free bandwidth is not modelled. */
  trxTransferSun: 268_000n,
  /** A TRX transfer that creates its recipient's account: 1 TRX, and 0.1 TRX in place of its bandwidth. */
  accountCreationSun: 1_100_000n,
};
export const SANDBOX_TREASURY_TRX_SUN = 1_000_000n * 1_000_000n;

/** The TransactWrite item that applies a move; a debit is conditional on the balance covering it. */
export function moveItem(tableName: string, move: BalanceMove, checked: boolean) {
  const delta = BigInt(move.delta);
  return {
    Update: {
      TableName: tableName,
      Key: sandboxBalanceItem.key(move.contract, move.address),
      UpdateExpression: 'ADD amount :delta SET #type = :type, contract = :contract, address = :address',
      ...(checked && delta < 0n && { ConditionExpression: 'amount >= :needed' }),
      ExpressionAttributeNames: { '#type': 'type' },
      ExpressionAttributeValues: {
        ':delta': delta,
        ':type': sandboxBalanceItem.type,
        ':contract': move.contract,
        ':address': move.address,
        ...(checked && delta < 0n && { ':needed': -delta }),
      },
    },
  };
}

export class SandboxBalances extends TableStore {
  /** Whether the address ever held `contract`: for TRX, whether it is an account on the chain. */
  async ever(contract: string, address: string): Promise<boolean> {
    return (await readItem(this.db, this.tableName, sandboxBalanceItem.key(contract, address))) !== null;
  }

  async of(contract: string, address: string): Promise<bigint> {
    const item = await readItem(this.db, this.tableName, sandboxBalanceItem.key(contract, address));
    // No item yet: the address never held this token.
    return item ? sandboxBalanceItem.fromItem(item).amount : 0n;
  }

  /** Every address's balance of `contract`: one partition. */
  async all(contract: string): Promise<Map<string, bigint>> {
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': sandboxBalanceItem.partition(contract) },
      ConsistentRead: true,
    });
    return new Map(items.map(sandboxBalanceItem.fromItem).map(({ address, amount }) => [address, amount]));
  }

  /** Undoes a dropped transaction's moves (a fork that lost it). */
  async undo(moves: BalanceMove[]): Promise<void> {
    for (const move of moves) {
      const { Update } = moveItem(this.tableName, { ...move, delta: String(-BigInt(move.delta)) }, false);
      await this.db.send(new UpdateCommand(Update));
    }
  }

  /** Writes balances computed from the chain's history (tables holding transfers but no balances). */
  async rebuild(balancesByContract: Map<string, Map<string, bigint>>): Promise<void> {
    const puts = [...balancesByContract].flatMap(([contract, balances]) =>
      [...balances].map(([address, amount]) => ({
        PutRequest: { Item: sandboxBalanceItem.toItem(contract, address, amount) },
      })),
    );
    for (let i = 0; i < puts.length; i += 25) {
      await this.db.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: puts.slice(i, i + 25) } }));
    }
  }
}
