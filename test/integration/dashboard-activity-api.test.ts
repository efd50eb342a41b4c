import { TRON_AND_ETHEREUM_DEPOSIT_SETTINGS } from '../support/deposit-settings.ts';
import { NETWORK_CHOICE, type NetworkName } from '#functions/networks/names';
import { BatchWriteCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { companyPartition } from '#adapters/dynamo/items/item';
import { encodeTime } from 'ulid';
import { beforeAll, describe, expect, it } from 'vitest';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { membershipItem } from '#adapters/dynamo/items/team';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { depositItem } from '#adapters/dynamo/items/deposit';
import { withdrawalItem } from '#adapters/dynamo/items/withdrawal';
import { conversionItem } from '#adapters/dynamo/items/conversion';
import { newWithdrawal, type Withdrawal } from '#functions/withdrawals/withdrawals';
import { createCompany } from '#functions/companies/company';
import { createDeposit, type Deposit, type DepositStore } from '#functions/deposits/deposits';
import { useTestApi } from '../support/local-api.ts';
import { cookieHeader, signedUpOwner } from '../support/dashboard.ts';
import { countDynamoRequests, dynamoRequestCounts } from '../../bench/dynamo-requests.ts';

// Every DynamoDB request this process sends is counted by command: the no-Scan test reads it.
countDynamoRequests();

/**
 * Activity through the dashboard API, over a real socket against the local runtime: paging,
 * filters, search, another company's records, the CSV export and its formula guard, the sandbox
 * simulator's refusals, and no Scan on the way.
 */
const api = useTestApi((db, tableName) => ({ deposits: new DynamoDepositStore(db, tableName) }));

const SETTINGS = TRON_AND_ETHEREUM_DEPOSIT_SETTINGS;

/**
 * A deposit made at noon (UTC) of `date`, then put in `status` (as the chain jobs would). Its id
 * carries that time, as an id made then would: ids are monotonic ULIDs, so `newId` in this process
 * cannot go back in time by itself.
 */
let seeded = 0;
async function depositOn(companyId: string, reference: string, date: string, status: Deposit['status'] = 'awaiting_payment', network: NetworkName = 'tron'): Promise<Deposit> {
  const at = new Date(`${date}T12:00:00.000Z`);
  let stored: Deposit | undefined;
  const backdated: DepositStore = {
    nextAddressIndex: () => api.deposits.nextAddressIndex(),
    getDeposit: (company, id) => api.deposits.getDeposit(company, id),
    allowlistFor: (company, network, address) => api.deposits.allowlistFor(company, network, address),
    holdingsAt: (forms) => api.deposits.holdingsAt(forms),
    listed: (network, addresses) => api.deposits.listed(network, addresses),
    createDeposit: (deposit, splitGuard) => api.deposits.createDeposit((stored = { ...deposit, id: ulidAt(at, seeded++) }), splitGuard),
  };
  await createDeposit(backdated, SETTINGS, companyId, { network, reference }, at);
  if (status === 'awaiting_payment') return stored!;
  const changed = { ...stored!, status };
  await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: depositItem.toItem(changed) }));
  return changed;
}

async function companyItems(companyId: string) {
  const { Items = [] } = await api.db.send(
    new QueryCommand({ TableName: api.runtime.tableName, KeyConditionExpression: 'PK = :pk', ExpressionAttributeValues: { ':pk': companyPartition(companyId) }, ConsistentRead: true }),
  );
  return Items;
}

describe('Activity lists', () => {
  let owner: Awaited<ReturnType<typeof signedUpOwner>>;
  const made: Deposit[] = [];

  beforeAll(async () => {
    owner = await signedUpOwner(api.runtime, 'Activity Co');
    made.push(await depositOn(owner.companyId, 'order-1', '2026-03-01', 'completed'));
    made.push(await depositOn(owner.companyId, 'order-2', '2026-03-02', 'expired'));
    made.push(await depositOn(owner.companyId, 'order-3', '2026-03-03', 'completed'));
    made.push(await depositOn(owner.companyId, 'order-4', '2026-03-04'));
    made.push(await depositOn(owner.companyId, 'order-5', '2026-03-05', 'confirming'));
    made.push(await depositOn(owner.companyId, 'eth-order-6', '2026-03-06', 'completed', 'ethereum'));
  });

  const list = (query: string) => owner.browser.call('GET', `/companies/${owner.companyId}/activity/deposits${query}`);

  it('pages newest first with cursors, to a last page that says so', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list(`?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.data.map((d: { reference: string }) => d.reference));
      cursor = page.body.pagination.nextCursor;
      pages++;
    } while (cursor);
    expect(seen).toEqual(['eth-order-6', 'order-5', 'order-4', 'order-3', 'order-2', 'order-1']);
    expect(pages).toBe(3);
  });

  it('filters by status and by date range, and pages a filtered list', async () => {
    const completed = await list('?status=completed&network=tron');
    expect(completed.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-3', 'order-1']);
    const firstOfTwo = await list('?status=completed&network=tron&limit=1');
    expect(firstOfTwo.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-3']);
    const second = await list(`?status=completed&network=tron&limit=1&cursor=${firstOfTwo.body.pagination.nextCursor}`);
    expect(second.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-1']);

    const range = await list('?from=2026-03-02&to=2026-03-04');
    expect(range.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-4', 'order-3', 'order-2']);
    const both = await list('?from=2026-03-02&to=2026-03-04&status=completed');
    expect(both.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-3']);
  });

  it('filters by network: each record shows its own, and a network with none shows nothing', async () => {
    const ethereum = await list('?network=ethereum');
    expect(ethereum.status).toBe(200);
    expect(ethereum.body.data.map((d: { reference: string; network: string }) => [d.reference, d.network])).toEqual([['eth-order-6', 'ethereum']]);
    expect((await list('?network=tron')).body.data.map((d: { network: string }) => d.network)).toEqual(['tron', 'tron', 'tron', 'tron', 'tron']);
    expect((await list('?network=ethereum&status=expired')).body.data).toEqual([]);
    expect((await list('?network=polygon')).body.data).toEqual([]);
    expect((await list('?network=solana')).body.data).toEqual([]);
    // A search still answers within the filter.
    expect((await list('?q=eth-order-6&network=tron')).body.data).toEqual([]);
    expect((await list('?q=eth-order-6&network=ethereum')).body.data.map((d: { reference: string }) => d.reference)).toEqual(['eth-order-6']);
  });

  it('refuses a network that is none of the registered ones, or on a list without networks, with a 400 naming network', async () => {
    const unknown = NETWORK_CHOICE;
    const cases = [
      ['deposits?network=dogecoin', unknown],
      ['withdrawals?network=Ethereum', unknown],
      ['deposits/export?network=bitcoin', unknown],
      ['conversions?network=tron', 'filters deposits and withdrawals only'],
      ['events?network=tron', 'filters deposits and withdrawals only'],
    ];
    for (const [path, message] of cases) {
      const refused = await owner.browser.call('GET', `/companies/${owner.companyId}/activity/${path}`);
      expect(refused.status, path).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
      expect(refused.body.error.details, path).toEqual([{ path: 'network', message }]);
    }
  });

  it('refuses a status the list does not have, a malformed date and a forged cursor, with a 400', async () => {
    for (const query of ['?status=bogus', '?from=03/01/2026', '?from=2026-03-05&to=2026-03-01', `?cursor=${Buffer.from('DEPOSIT#nope').toString('base64url')}`]) {
      const refused = await list(query);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/activity/balances`)).status).toBe(400);
  });

  it('finds a record by its id or its reference, and opens its detail', async () => {
    const byReference = await list('?q=order-2');
    expect(byReference.body.data).toEqual([expect.objectContaining({ id: made[1]!.id, reference: 'order-2', status: 'expired' })]);
    const byId = await list(`?q=${made[3]!.id}`);
    expect(byId.body.data.map((d: { reference: string }) => d.reference)).toEqual(['order-4']);
    expect((await list('?q=order-2&status=completed')).body.data).toEqual([]);
    expect((await list('?q=no-such-order')).body.data).toEqual([]);

    const ethereum = await owner.browser.call('GET', `/companies/${owner.companyId}/activity/deposits?id=${made[5]!.id}`);
    expect(ethereum.body.data).toMatchObject({ reference: 'eth-order-6', network: 'ethereum', address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), requiredConfirmations: 12 });
    const detail = await owner.browser.call('GET', `/companies/${owner.companyId}/activity/deposits?id=${made[0]!.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: made[0]!.id, reference: 'order-1', status: 'completed', address: made[0]!.address, transactions: [], requiredConfirmations: 19 });
  });

  it('finds every conversion carrying a reference, a label many may share, paged', async () => {
    const labelled = await signedUpOwner(api.runtime, 'Conversions Co');
    const conversionOn = (at: string, reference: string | null, i: number) =>
      conversionItem.toItem({
        id: `cnv_${encodeTime(Date.parse(at), 10)}${String(i).padStart(16, '0')}`,
        companyId: labelled.companyId,
        quoteId: `quo_${encodeTime(Date.parse(at), 10)}${String(i).padStart(16, '0')}`,
        reference,
        sourceCurrency: 'USDT',
        settlementCurrency: 'BRL',
        sourceAmount: 10_000_000n,
        settlementAmount: 5_400n,
        rate: 5_400_000n,
        status: 'completed',
        createdAt: at,
        completedAt: at,
      });
    const items = [
      conversionOn('2026-06-01T10:00:00.000Z', 'payroll-june', 1),
      conversionOn('2026-06-02T10:00:00.000Z', 'treasury', 2),
      conversionOn('2026-06-03T10:00:00.000Z', 'payroll-june', 3),
      conversionOn('2026-06-04T10:00:00.000Z', null, 4),
      conversionOn('2026-06-05T10:00:00.000Z', 'payroll-june', 5),
    ];
    await api.db.send(new BatchWriteCommand({ RequestItems: { [api.runtime.tableName]: items.map((Item) => ({ PutRequest: { Item } })) } }));
    const conversions = (query: string) => labelled.browser.call('GET', `/companies/${labelled.companyId}/activity/conversions${query}`);

    const first = await conversions('?q=payroll-june&limit=2');
    expect(first.status).toBe(200);
    expect(first.body.data.map((c: { id: string }) => c.id)).toEqual([items[4]!.id, items[2]!.id]);
    const rest = await conversions(`?q=payroll-june&limit=2&cursor=${first.body.pagination.nextCursor}`);
    expect(rest.body.data.map((c: { id: string }) => c.id)).toEqual([items[0]!.id]);
    expect(rest.body.pagination.nextCursor).toBeNull();
    expect((await conversions('?q=payroll-june&to=2026-06-02')).body.data.map((c: { id: string }) => c.id)).toEqual([items[0]!.id]);
    expect((await conversions(`?q=${items[1]!.id}`)).body.data.map((c: { reference: string }) => c.reference)).toEqual(['treasury']);
    expect((await conversions('?q=payroll')).body.data).toEqual([]);
    // Another company's label finds nothing here.
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/activity/conversions?q=payroll-june`)).body.data).toEqual([]);
  });

  it('never shows another company’s records: its id is 404, its reference finds nothing', async () => {
    const other = await signedUpOwner(api.runtime, 'Other Co');
    const theirs = await depositOn(other.companyId, 'their-order', '2026-03-03');
    expect((await owner.browser.call('GET', `/companies/${owner.companyId}/activity/deposits?id=${theirs.id}`)).status).toBe(404);
    expect((await list(`?q=${theirs.id}`)).body.data).toEqual([]);
    expect((await list('?q=their-order')).body.data).toEqual([]);
    // Their own list, asked for by a non-member, is the company's 404.
    expect((await owner.browser.call('GET', `/companies/${other.companyId}/activity/deposits`)).status).toBe(404);
    expect((await owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: theirs.id, amount: '1' } })).status).toBe(404);
  });

  it('reads with Query and GetItem only, never a Scan', async () => {
    const scansBefore = dynamoRequestCounts.get('ScanCommand') ?? 0;
    const queriesBefore = dynamoRequestCounts.get('QueryCommand') ?? 0;
    await list('?status=expired&from=2026-01-01');
    await list('?q=order-3');
    await owner.browser.call('GET', `/companies/${owner.companyId}/activity/deposits/export`);
    expect(dynamoRequestCounts.get('ScanCommand') ?? 0).toBe(scansBefore);
    expect(dynamoRequestCounts.get('QueryCommand') ?? 0).toBeGreaterThan(queriesBefore);
  });
});

describe('Export CSV', () => {
  const cookieOf = (person: Awaited<ReturnType<typeof signedUpOwner>>) => cookieHeader(person.browser.jar);
  const exportOf = (person: Awaited<ReturnType<typeof signedUpOwner>>, companyId: string, query = '') =>
    fetch(`${person.browser.origin}/dashboard/api/companies/${companyId}/activity/deposits/export${query}`, { headers: { Cookie: cookieOf(person) } });

  it('holds what the filter shows, as a file to save, and a reference a spreadsheet would run starts with a quote', async () => {
    const owner = await signedUpOwner(api.runtime, 'Export Co');
    await depositOn(owner.companyId, '=HYPERLINK("http://evil.example","x")', '2026-04-01', 'completed');
    await depositOn(owner.companyId, '+1-2', '2026-04-02', 'completed');
    await depositOn(owner.companyId, 'plain-order', '2026-04-03', 'expired');
    const response = await exportOf(owner, owner.companyId, '?status=completed');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="cambio-deposits-\d{4}-\d{2}-\d{2}\.csv"$/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('id,reference,status,amount,receivedAmount,creditedAmount,address,confirmations,createdAt,updatedAt,network,holdReason');
    expect(lines).toHaveLength(3);
    // Not held: an empty holdReason after the network.
    expect(lines[1]).toMatch(/^dep_\w+,'\+1-2,completed,.*,tron,$/);
    expect(lines[2]).toMatch(/^dep_\w+,"'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",completed,/);
    expect(lines.join('\n')).not.toContain('plain-order');

    // The Network filter exports that network's rows, each naming it in the last column.
    await depositOn(owner.companyId, 'eth-export', '2026-04-04', 'completed', 'ethereum');
    const ethereum = (await (await exportOf(owner, owner.companyId, '?network=ethereum')).text()).trimEnd().split('\n');
    expect(ethereum).toHaveLength(2);
    expect(ethereum[1]).toMatch(/^dep_\w+,eth-export,completed,,0\.000000,0\.000000,0x[0-9a-fA-F]{40},0,[^,]+,[^,]+,ethereum,$/);
  });

  it("gives a withdrawal's network cost in columns of its own after the others: a Solana payout's SOL and whether it created the payee's token account; empty where the record has none", async () => {
    const owner = await signedUpOwner(api.runtime, 'Withdrawal Export Co');
    const completed = (network: NetworkName, reference: string, address: string, networkCost: Withdrawal['networkCost']): Withdrawal => ({
      ...newWithdrawal(owner.companyId, { network, reference, address, amount: 10_000_000n, fee: 1_000_000n }, new Date('2026-04-05T10:00:00.000Z')),
      status: 'completed',
      txHash: network === 'solana' ? '5'.repeat(88) : 'ab'.repeat(32),
      deliveredAmount: 10_000_000n,
      networkCost,
      completedAt: '2026-04-05T10:01:00.000Z',
    });
    // Stored as a Solana cost was before costs carried their coin's decimals: read as lamports.
    const solPayout = withdrawalItem.toItem(completed('solana', 'sol-payout', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', { asset: 'SOL', decimals: 9, amount: 2_044_280n, tokenAccountCreated: true }));
    await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: { ...solPayout, networkCost: { asset: 'SOL', amount: 2_044_280n, tokenAccountCreated: true } } }));
    await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: withdrawalItem.toItem(completed('tron', 'tron-payout', 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', null)) }));
    const response = await fetch(`${owner.browser.origin}/dashboard/api/companies/${owner.companyId}/activity/withdrawals/export`, { headers: { Cookie: cookieOf(owner) } });
    expect(response.status).toBe(200);
    const lines = (await response.text()).trimEnd().split('\n');
    expect(lines[0]).toBe('id,reference,status,amount,fee,address,txHash,failureReason,createdAt,completedAt,network,deliveredAmount,networkCostAsset,networkCostAmount,networkCostTokenAccountCreated');
    expect(lines.find((line) => line.includes('sol-payout'))).toMatch(/,solana,10\.000000,SOL,0\.002044280,true$/);
    expect(lines.find((line) => line.includes('tron-payout'))).toMatch(/,tron,10\.000000,,,$/);
  });

  it('streams every row in one answer, read 1,000 at a time, the header once', async () => {
    const owner = await signedUpOwner(api.runtime, 'Big Export Co');
    const start = Date.parse('2026-05-01T00:00:00.000Z');
    const template = await depositOn(owner.companyId, 'bulk-template', '2026-04-30');
    const rows = Array.from({ length: 2_000 }, (_, i) => {
      const at = new Date(start + i * 1000);
      return depositItem.toItem({ ...template, id: ulidAt(at, seeded++), reference: `bulk-${i}`, createdAt: at.toISOString(), updatedAt: at.toISOString() });
    });
    for (let i = 0; i < rows.length; i += 25) {
      await api.db.send(new BatchWriteCommand({ RequestItems: { [api.runtime.tableName]: rows.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } })) } }));
    }
    const queriesBefore = dynamoRequestCounts.get('QueryCommand') ?? 0;
    const response = await exportOf(owner, owner.companyId);
    expect(response.status).toBe(200);
    // Sent as it is read: no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const received: string[] = [];
    for await (const piece of response.body!.pipeThrough(new TextDecoderStream())) received.push(piece);
    const lines = received.join('').trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('id,'))).toHaveLength(1);
    expect(lines).toHaveLength(1 + 2_001);
    expect(lines[1]).toContain('bulk-1999');
    expect(lines.at(-1)).toContain('bulk-template');
    // Three rounds of at most 1,000 (and the membership read), not one read of everything.
    expect((dynamoRequestCounts.get('QueryCommand') ?? 0) - queriesBefore).toBeGreaterThanOrEqual(3);
    // Seeding 2,001 deposits is 81 writes: on a loaded 2-core CI machine that alone neared 30 s.
  }, 120_000);

  it('refuses a bad filter, a stranger and no session in the envelope, before any CSV', async () => {
    const owner = await signedUpOwner(api.runtime, 'Refused Export Co');
    const stranger = await signedUpOwner(api.runtime, 'Stranger Co');
    const badStatus = await exportOf(owner, owner.companyId, '?status=paid');
    expect(badStatus.status).toBe(400);
    expect(badStatus.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await badStatus.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_FAILED');
    const unknownParameter = await exportOf(owner, owner.companyId, '?cursor=abc');
    expect(unknownParameter.status).toBe(400);
    const theirs = await exportOf(stranger, owner.companyId);
    expect(theirs.status).toBe(404);
    expect(((await theirs.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    const signedOut = await fetch(`${owner.browser.origin}/dashboard/api/companies/${owner.companyId}/activity/deposits/export`);
    expect(signedOut.status).toBe(401);
  });
});

describe('the sandbox simulator', () => {
  it('pays a sandbox deposit for an Owner, and says so in the audit log', async () => {
    const owner = await signedUpOwner(api.runtime, 'Sim Co');
    const deposit = await depositOn(owner.companyId, 'sim-order', '2026-06-01');
    const paid = await owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: deposit.id, amount: '12.5' } });
    expect(paid.status).toBe(202);
    expect(paid.body.data.txHash).toMatch(/^[0-9a-f]{64}$/);
    const audit = await owner.browser.call('GET', `/companies/${owner.companyId}/audit-log`);
    expect(audit.body.data[0]).toMatchObject({ action: 'deposit.payment_simulated', target: deposit.id, details: { amount: '12.5', txHash: paid.body.data.txHash }, actor: { email: owner.email } });

    const refused = await owner.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: deposit.id, amount: '-3' } });
    expect(refused.status).toBe(400);
  });

  it('refuses a Viewer (403) and a production company (403), writing nothing', async () => {
    const owner = await signedUpOwner(api.runtime, 'Viewed Sim');
    const deposit = await depositOn(owner.companyId, 'viewed-order', '2026-06-02');
    const viewer = await signedUpOwner(api.runtime, 'Viewer Home');
    const viewerId = (await viewer.browser.call('GET', '/me')).body.data.personId as string;
    await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: membershipItem.toItem({ companyId: owner.companyId, personId: viewerId, email: viewer.email, role: 'Viewer', createdAt: new Date().toISOString() }) }));
    const before = await companyItems(owner.companyId);
    expect((await viewer.browser.call('GET', `/companies/${owner.companyId}/activity/deposits?id=${deposit.id}`)).status).toBe(200);
    const asViewer = await viewer.browser.call('POST', `/companies/${owner.companyId}/simulated-payments`, { body: { depositId: deposit.id, amount: '1' } });
    expect(asViewer.status).toBe(403);
    expect(asViewer.body.error.code).toBe('FORBIDDEN');
    expect(await companyItems(owner.companyId)).toEqual(before);

    const { company } = await createCompany(new DynamoCompanyStore(api.db, api.runtime.tableName), { name: 'Live Co', environment: 'production' });
    await api.db.send(new PutCommand({ TableName: api.runtime.tableName, Item: membershipItem.toItem({ companyId: company.id, personId: viewerId, email: viewer.email, role: 'Owner', createdAt: new Date().toISOString() }) }));
    const live = await depositOn(company.id, 'live-order', '2026-06-03');
    const liveBefore = await companyItems(company.id);
    const asProduction = await viewer.browser.call('POST', `/companies/${company.id}/simulated-payments`, { body: { depositId: live.id, amount: '1' } });
    expect(asProduction.status).toBe(403);
    expect(asProduction.body.error.message).toMatch(/sandbox/);
    expect(await companyItems(company.id)).toEqual(liveBefore);
  });
});

/** A deposit id made at `at` (the ULID's time part), unique by `i`. */
const ulidAt = (at: Date, i: number): string => `dep_${encodeTime(at.getTime(), 10)}${String(i).padStart(16, '0')}`;
