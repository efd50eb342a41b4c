import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { erc20Abi, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anvilAccount, localWalletClient } from '#local/evm-contracts';
import { useFreshTable } from '../support/dynamo.ts';
import { anvilNetworkSettings, useAnvilWithContracts } from '../support/anvil.ts';
import { evmDepositJobs, evmDepositSettings, type EvmDepositSettings } from '../support/evm-jobs.ts';
import { useDepositCompany } from '../support/deposit-company.ts';

/**
 * A provider backend behind the tip answering the scanner's logs (../shared/networks.md, "The node
 * is a provider, not a truth"): a load balancer sends the eth_getLogs batch to a backend `lag` blocks
 * behind the one that answered the head and the final block, and that backend answers logs only up
 * to its own head, silently (as reth caps toBlock), and has no block above it. The scan must not move
 * past blocks whose logs it has not read: they are final by then, and the overlap does not reach
 * back (evm-chain.ts logsIn asks the page's last block in the same batch).
 */
const CONFIRMATIONS = 3;
const env = useFreshTable();
const anvil = useAnvilWithContracts({ chainId: 137, usdtDecimals: 6 });
let settings: EvmDepositSettings;
const company = useDepositCompany(env, 'Lagging Logs Co', () => settings);
let lag = 0;
let server: Server;

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = JSON.parse(Buffer.concat(chunks).toString());
        const calls: { id: unknown; method: string; params?: unknown[] }[] = Array.isArray(body) ? body : [body];
        const forward = async (payload: unknown) => (await (await fetch(anvil.node.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(payload) })).json()) as unknown;
        const head = Number(((await forward({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] })) as { result: string }).result);
        const answers = await Promise.all(
          calls.map(async (call) => {
            // The batch that carries the logs went to the backend behind: it has no block past its head.
            const withLogs = calls.some((other) => other.method === 'eth_getLogs');
            if (call.method === 'eth_getBlockByNumber' && lag > 0 && withLogs && Number(call.params![0]) > head - lag) {
              return { jsonrpc: '2.0', id: call.id, result: null };
            }
            if (call.method === 'eth_getLogs' && lag > 0) {
              const filter = { ...(call.params![0] as { fromBlock: string; toBlock: string }) };
              const cap = head - lag;
              if (Number(filter.fromBlock) > cap) return { jsonrpc: '2.0', id: call.id, result: [] };
              if (Number(filter.toBlock) > cap) filter.toBlock = `0x${cap.toString(16)}`;
              return forward({ ...call, params: [filter] });
            }
            return forward(call);
          }),
        );
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  settings = evmDepositSettings({ polygon: { ...anvilNetworkSettings(anvil.node, { chainId: 137, confirmations: CONFIRMATIONS }), rpcUrl: url } });
  await evmDepositJobs(env, 'polygon', settings).scan();
}, 60_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

describe('eth_getLogs from a backend behind the head', () => {
  it('a payment in a block the logs left out is not passed over: the run fails, and the payment is credited once the backend catches up', async () => {
    const jobs = () => evmDepositJobs(env, 'polygon', settings);
    const deposit = await company.newDeposit('polygon');
    const customer = localWalletClient(anvil.node.chain, anvilAccount.customer());
    await anvil.client().waitForTransactionReceipt({
      hash: await customer.writeContract({ address: anvil.node.usdt, abi: erc20Abi, functionName: 'transfer', args: [deposit.address as Address, parseUnits('5', 6)] }),
    });
    await anvil.mine(30);
    lag = 40; // the logs backend is 40 blocks behind the one that answered the head
    await expect(jobs().scan()).rejects.toThrow(/has no block \d+ though it answered logs up to it/);
    lag = 0; // caught up
    for (let run = 0; run < 3; run++) {
      await jobs().scan();
      await anvil.mine(CONFIRMATIONS + 1);
      await jobs().scan();
      await jobs().confirm();
    }
    expect(await company.read(deposit)).toMatchObject({ status: 'completed', creditedAmount: parseUnits('5', 6) });
  }, 120_000);
});
