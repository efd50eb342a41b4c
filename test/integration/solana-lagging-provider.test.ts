import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany } from '#functions/companies/company';
import { createDeposit, getDeposit } from '#functions/deposits/deposits';
import { DynamoCompanyStore } from '#adapters/dynamo/company-store';
import { DynamoDepositStore } from '#adapters/dynamo/deposit-store';
import { solanaChainOf } from '#functions/networks/solana/from-settings';
import { useFreshTable } from '../support/dynamo.ts';
import { usdt } from '../support/money.ts';
import { FINALITY_DEPTH, useSolanaNode } from '../support/solana.ts';
import { customerPays, solanaDepositJobs, solanaDepositSettings, solanaSweeper } from '../support/solana-sweeps.ts';

/**
 * A Solana provider behind a load balancer (../shared/networks.md, "The node is a provider, not a
 * truth"): getSlot and getBlock answered by a backend at the tip, getBlocks by one `lag` slots
 * behind. Agave ends getBlocks' list at the answering node's own confirmed slot without a word, so
 * the list stops short of the slot asked; `skipEnd` makes the proxy say the last slot asked was
 * skipped (-32007), as Agave does for a slot with no block.
 */
async function loadBalancedProvider(target: string) {
  const faults = { lag: 0, skipEnd: false };
  let lastAskedEnd: number | null = null;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: unknown; method: string; params: unknown[] };
        if (call.method === 'getBlocks' && typeof call.params[1] === 'number') {
          lastAskedEnd = call.params[1];
          if (faults.lag > 0) call.params[1] = call.params[1] - faults.lag;
        }
        if (call.method === 'getBlock' && faults.skipEnd && call.params[0] === lastAskedEnd) {
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error: { code: -32007, message: `Slot ${lastAskedEnd} was skipped, or missing due to ledger jump to recent snapshot` } }));
          return;
        }
        const answer = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(call) });
        response.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text());
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, faults, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const env = useFreshTable();
const solana = useSolanaNode();
let provider: Awaited<ReturnType<typeof loadBalancedProvider>>;

beforeAll(async () => {
  provider = await loadBalancedProvider(solana.node.url);
});
afterAll(async () => provider?.stop());

async function depositThroughProvider(reference: string) {
  const node = solana.node;
  const settings = solana.settings({ rpcUrl: provider.url });
  const chain = solanaChainOf({ SOLANA: settings });
  const jobs = solanaDepositJobs(env, node, chain);
  const deposits = new DynamoDepositStore(env.db, env.tableName);
  const { company } = await createCompany(new DynamoCompanyStore(env.db, env.tableName), { name: `${reference} Co`, environment: 'sandbox' }, new Date());
  await solanaSweeper(env, solana.settings()).writeOwnersAhead();
  await jobs.scan();
  const deposit = await createDeposit(deposits, solanaDepositSettings(env, settings), company.id, { network: 'solana', reference }, new Date());
  return { node, jobs, deposit, read: () => getDeposit(deposits, company.id, deposit.id) };
}

describe('a Solana scan through a provider whose backends disagree', () => {
  it('does not move past slots a backend behind left out of getBlocks: the run fails, and the payment there is credited once the backend catches up', async () => {
    const { node, jobs, deposit, read } = await depositThroughProvider('lagging-getblocks');
    await customerPays(node, deposit.address, usdt('25'));
    node.advanceSlots(25);

    provider.faults.lag = 30;
    await expect(jobs.scanOnce()).rejects.toThrow(/listed blocks up to slot \d+ of \d+, which has a block/);
    provider.faults.lag = 0;
    node.advanceSlots(FINALITY_DEPTH + 5);
    await jobs.scan();
    await jobs.confirm();

    expect(await read()).toMatchObject({ status: 'completed', receivedAmount: usdt('25') });
  }, 120_000);

  it('takes a list that ends before the last slot asked when that slot has no block (skipped)', async () => {
    const { node, jobs } = await depositThroughProvider('skipped-end');
    node.advanceSlots(5);

    provider.faults.lag = 1;
    provider.faults.skipEnd = true;
    const run = await jobs.scanOnce();
    provider.faults.lag = 0;
    provider.faults.skipEnd = false;

    expect(run.scanned).not.toBeNull();
  }, 120_000);
});
