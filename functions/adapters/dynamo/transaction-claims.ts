import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { TransactionIdTaken, type PayoutOwner, type TransactionClaims } from '#functions/withdrawals/payouts';
import { transactionClaimItem } from './items/transaction-claim.ts';
import type { MoneyTransaction } from './transaction.ts';
import { heldCondition, readItem } from './queries.ts';

/** Adds the claim to the transaction that stores the signed payout: DynamoDB refuses a second
 * claim on the id, and the whole write with it. */
export function claimIn(tx: MoneyTransaction, txId: string, owner: PayoutOwner, claimedAt: string): MoneyTransaction {
  return tx.create(transactionClaimItem.toItem(txId, owner, claimedAt), () => new TransactionIdTaken(txId));
}

export class DynamoTransactionClaims implements TransactionClaims {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async ownerOf(txId: string): Promise<PayoutOwner | null> {
    const item = await readItem(this.db, this.tableName, transactionClaimItem.key(txId));
    return item ? transactionClaimItem.owner(item) : null;
  }

  async claimIfFree(txId: string, owner: PayoutOwner): Promise<PayoutOwner> {
    // A payout's claim is written when it is signed: settling asks once per withdrawal, so the
    // usual answer is one read, not a refused write and then a read.
    const existing = await this.ownerOf(txId);
    if (existing) return existing;
    const claimed = await heldCondition(
      this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: transactionClaimItem.toItem(txId, owner, this.now().toISOString()),
          ConditionExpression: 'attribute_not_exists(PK)',
        }),
      ),
    );
    return claimed ? owner : ((await this.ownerOf(txId)) ?? owner);
  }
}
