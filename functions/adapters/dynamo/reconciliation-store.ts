import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EXTERNAL_ACCOUNTS } from '#domain/ledger';
import { toBigInt } from './client.ts';
import { ENTITY } from './keys.ts';

type Item = Record<string, unknown>;

/**
 * The ledger side of reconciliation, read with one full Scan: an operator's tool, run on demand
 * (and on a DynamoDB export by finance), never on a request path.
 */
export async function ledgerSide(db: DynamoDBDocumentClient, tableName: string) {
  let companiesUsdt = 0n;
  let treasuryUsdt = 0n;
  const depositAddresses: string[] = [];
  const processing: { txHash: string; amount: bigint }[] = [];
  const treasury = new Set<string>([EXTERNAL_ACCOUNTS.networkFees, EXTERNAL_ACCOUNTS.conversionDesk]);
  let start: Item | undefined;
  do {
    const page = await db.send(new ScanCommand({ TableName: tableName, ExclusiveStartKey: start, ConsistentRead: true }));
    for (const item of page.Items ?? []) {
      if (item.type === ENTITY.balance && item.currency === 'USDT') {
        companiesUsdt += toBigInt(item.available) + toBigInt(item.pending) + toBigInt(item.locked);
      } else if (item.type === ENTITY.ledgerEntry) {
        for (const posting of item.postings as Item[]) {
          if (posting.asset !== 'USDT') continue;
          if (treasury.has(posting.destination as string)) treasuryUsdt += toBigInt(posting.amount);
          if (treasury.has(posting.source as string)) treasuryUsdt -= toBigInt(posting.amount);
        }
      } else if (item.type === ENTITY.depositAddress) {
        depositAddresses.push(item.address as string);
      } else if (item.type === ENTITY.withdrawal && item.status === 'processing' && item.txHash) {
        processing.push({ txHash: item.txHash as string, amount: toBigInt(item.amount) });
      }
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return { companiesUsdt, treasuryUsdt, depositAddresses, processing };
}
