import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { AccountBalances, EXTERNAL_ACCOUNTS, networkAccount } from '#functions/ledger/ledger';
import type { LedgerSide } from '#functions/ledger/reconciliation';
import { chainTransferItem } from './items/chain-transfer.ts';
import { depositAddressItem } from './items/deposit-address.ts';
import { dustTransferItem } from './items/dust-transfer.ts';
import { batchGetAll, gsi1Partition, pagesOf } from './queries.ts';
import { ledgerEntryItem } from './items/ledger-entry.ts';
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

/** A withdrawal's settling entry: `withdrawal:<id>:completed` or `:failed` (functions/withdrawals/withdrawal-sending.ts). */
const SETTLING_REFERENCE = /^withdrawal:([^:]+):(?:completed|failed)$/;
/** Every company account (companyAccount: `company:<id>:<bucket>`). */
const COMPANY_ACCOUNT_PREFIX = 'company:';

/**
 * The ledger side of reconciliation. The companies' USDT and Cambio's own accounts come from the
 * ledger entries of one full Scan: no index lists every company's entries, and the fee and desk
 * accounts exist only as postings in them. (That each Balance item equals its entries is the
 * ledger's own check, `npm run ledger:csv`.) An operator's tool run hourly or on demand (and on a DynamoDB export by
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
  const postings = new AccountBalances();
  // The withdrawals whose settling entry (completed or failed) this Scan has read, in the company
  // partition it is reading: a partition's entries (LEDGER#…) come before its withdrawals
  // (WITHDRAWAL#…), so each withdrawal is judged against the entries read before it.
  let partition: unknown;
  const settledInEntries = new Set<string>();
  const everyAddress: string[] = [];
  const processing: LedgerSide['processing'] = [];
  const sweepsInFlight: NonNullable<LedgerSide['sweepsInFlight']> = [];
  const dust: NonNullable<LedgerSide['dust']> = {};
  // One pass over the table, a page at a time: memory holds one page, not the table.
  for await (const page of pagesOf(db, (ExclusiveStartKey) => new ScanCommand({ TableName: tableName, ExclusiveStartKey, ConsistentRead: true }))) {
    for (const item of page) {
      if (item.PK !== partition) {
        partition = item.PK;
        settledInEntries.clear();
      }
      if (ledgerEntryItem.isOne(item)) {
        const entry = ledgerEntryItem.fromItem(item);
        postings.add(entry);
        const settled = SETTLING_REFERENCE.exec(entry.reference);
        if (settled) settledInEntries.add(settled[1]!);
      } else if (depositAddressItem.isOne(item)) {
        const address = depositAddressItem.addressOf(item);
        if (kept(address)) everyAddress.push(address);
      } else if (dustTransferItem.isOne(item)) {
        const { network, address, amount } = dustTransferItem.fromItem(item);
        (dust[network] ??= []).push({ address, amount });
      } else if (withdrawalItem.isOne(item)) {
        const withdrawal = withdrawalItem.fromItem(item);
        // Still owed by the entries read: processing, or completed since they were read (a payout
        // settling while the Scan crossed the partition). Every version of a payout replaced at a
        // higher fee (EVM): any one of them may be the one mined.
        const unsettledInEntries = withdrawal.status === 'processing' || (withdrawal.status === 'completed' && !settledInEntries.has(withdrawal.id));
        if (unsettledInEntries && withdrawal.txHash)
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
  // The companies' USDT as the entries read add up, not their Balance items: those are read before
  // the entries (BALANCE#… sorts first), so a payout settling between the two reads would be owed by
  // the balance and settled by the entries, a false shortfall every run while payouts flow.
  let companiesUsdt = 0n;
  for (const { account, currency, balance } of postings.all()) if (currency === 'USDT' && account.startsWith(COMPANY_ACCOUNT_PREFIX)) companiesUsdt += balance;
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
