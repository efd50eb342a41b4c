import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccountBalances, EXTERNAL_ACCOUNTS, networkAccount } from '#functions/ledger/ledger';
import type { LedgerSide } from '#functions/ledger/reconciliation';
import { chainTransferItem } from './items/chain-transfer.ts';
import { depositAddressItem } from './items/deposit-address.ts';
import { dustTransferItem } from './items/dust-transfer.ts';
import { batchGetAll, gsi1Partition, pagesOf } from './queries.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
import { balanceItem } from './items/balance.ts';
import { depositItem } from './items/deposit.ts';
import { withdrawalItem } from './items/withdrawal.ts';
import { NETWORK_NAMES, type NetworkName } from '#functions/networks/names';
import { networkNamed } from '#functions/networks/registry';
import { SWEEPS_IN_FLIGHT } from '#functions/networks/record-registry';

/**
 * Which deposit addresses the ledger side lists on each network: `unswept`, those that may still
 * hold USDT the ledger counts (sparse GSI1 partitions, see unsweptDepositAddresses), and on the
 * networks `every` names every address of the network's form ever issued as well, for a sandbox
 * chain, which answers any number of balances in one read (NetworkChains.reconcileSources
 * readsAllBalancesAtOnce). The addresses ledgerSide's `readEvery` keeps are given as well
 * (LedgerSide.everyDepositAddress), from the same Scan.
 */
export type AddressScope = 'unswept' | { every: readonly NetworkName[] };

/**
 * The ledger side of reconciliation. Balances and Cambio's own accounts come from one full Scan:
 * no index lists every company's balance, and the fee and desk accounts exist only as postings
 * in ledger entries. An operator's tool run hourly or on demand (and on a DynamoDB export by
 * finance), never on a request path. The addresses come from GSI1 queries made after the Scan,
 * so that a transfer credited before its balance was read is found (reconcileHoldings).
 */
export async function ledgerSide(
  db: DynamoDBDocumentClient,
  tableName: string,
  scope: AddressScope,
  /** The addresses some network reads whatever the ledger lists (NetworkSources.readsEveryDepositAddressOf):
   * only those, and those of the networks `scope` lists every address on, are kept from the Scan, so a
   * stage whose networks read none holds no address list. Absent: every address is kept. */
  readEvery: (address: string) => boolean = () => true,
): Promise<LedgerSide> {
  const listsEvery = scope === 'unswept' ? [] : scope.every.map((network) => networkNamed(network).address);
  const kept = (address: string) => readEvery(address) || listsEvery.some((form) => form.is(address));
  let companiesUsdt = 0n;
  const postings = new AccountBalances();
  const everyAddress: string[] = [];
  const processing: LedgerSide['processing'] = [];
  const sweepsInFlight: NonNullable<LedgerSide['sweepsInFlight']> = [];
  const dust: NonNullable<LedgerSide['dust']> = {};
  // One pass over the table, a page at a time: memory holds one page, not the table.
  for await (const page of pagesOf(db, (ExclusiveStartKey) => new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }))) {
    for (const item of page) {
      if (balanceItem.isOne(item)) {
        const balance = balanceItem.fromItem(item);
        if (balance.currency === 'USDT') companiesUsdt += balance.available + balance.pending + balance.locked + balance.held;
      } else if (ledgerEntryItem.isOne(item)) {
        postings.add(ledgerEntryItem.fromItem(item));
      } else if (depositAddressItem.isOne(item)) {
        const address = depositAddressItem.addressOf(item);
        if (kept(address)) everyAddress.push(address);
      } else if (dustTransferItem.isOne(item)) {
        const { network, address, amount } = dustTransferItem.fromItem(item);
        (dust[network] ??= []).push({ address, amount });
      } else if (withdrawalItem.isOne(item)) {
        const withdrawal = withdrawalItem.fromItem(item);
        // Every version of a payout replaced at a higher fee (EVM): any one of them may be the one mined.
        if (withdrawal.status === 'processing' && withdrawal.txHash)
          processing.push({ network: withdrawal.network, txHashes: [withdrawal.txHash, ...(withdrawal.transaction?.replacedTxHashes ?? [])], amount: withdrawal.amount });
      } else {
        // A family's own sweep records (functions/networks/record-registry.ts).
        for (const inFlight of SWEEPS_IN_FLIGHT) {
          const sweep = inFlight(item);
          if (sweep) sweepsInFlight.push(sweep);
        }
      }
    }
  }
  const treasuryUsdt = [EXTERNAL_ACCOUNTS.networkFees, EXTERNAL_ACCOUNTS.conversionDesk, EXTERNAL_ACCOUNTS.hotWalletFloat, EXTERNAL_ACCOUNTS.tokenFees].reduce(
    (sum, account) => sum + postings.of(account, 'USDT'),
    0n,
  );
  const netInflowUsdt: LedgerSide['netInflowUsdt'] = {};
  const depositAddresses: LedgerSide['depositAddresses'] = {};
  for (const network of NETWORK_NAMES) {
    // Deposits credit a company from `external:<network>`, and a float Cambio's own account; payouts on it go back there.
    netInflowUsdt[network] = -postings.of(networkAccount(network), 'USDT');
    const unswept = await unsweptDepositAddresses(db, tableName, network);
    const every = scope !== 'unswept' && scope.every.includes(network) ? everyAddress.filter((address) => networkNamed(network).address.is(address)) : [];
    depositAddresses[network] = every.length > 0 ? [...new Set([...every, ...unswept])] : unswept;
  }
  return { companiesUsdt, treasuryUsdt, netInflowUsdt, processing, sweepsInFlight, depositAddresses, everyDepositAddress: everyAddress, dust };
}

/**
 * A network's deposit addresses that may still hold USDT a company was credited with: a transfer still
 * confirming (pending), confirmed funds the sweeper has not yet moved (sweep due), an amount
 * the sweeper left below its minimum, an address set aside because the issuer froze it, or a transfer
 * held there (a frozen address, a sanctioned payer). Each is a sparse GSI1 partition, so the cost follows the
 * funds waiting on deposit addresses, not the number of addresses ever issued.
 */
export async function unsweptDepositAddresses(db: DynamoDBDocumentClient, tableName: string, network: NetworkName): Promise<string[]> {
  const partition = (GSI1PK: string) => gsi1Partition(db, tableName, GSI1PK);
  const [due, belowMinimum, frozen, confirming, held] = await Promise.all([
    partition(depositAddressItem.sweepDuePartition(network)),
    partition(depositAddressItem.belowMinimumPartition(network)),
    partition(depositAddressItem.frozenPartition(network)),
    partition(chainTransferItem.confirmingPartition(network)),
    partition(chainTransferItem.heldPartition(network)),
  ]);
  // A chain transfer names its deposit, not the address: one BatchGet of those deposits.
  const depositKeys = new Map(
    [...confirming, ...held].map(chainTransferItem.fromItem).map(({ companyId, depositId }) => {
      const key = depositItem.key(companyId, depositId);
      return [`${key.PK}|${key.SK}`, key];
    }),
  );
  const confirmingOn = (await batchGetAll(db, tableName, [...depositKeys.values()])).map((item) => depositItem.fromItem(item).address);
  const marked = [...due, ...belowMinimum, ...frozen].map(depositAddressItem.addressOf);
  return [...new Set([...marked, ...confirmingOn])];
}
