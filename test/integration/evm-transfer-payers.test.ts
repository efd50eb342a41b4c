import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getAddress, numberToHex, pad } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChain } from '#functions/networks/evm/evm-chain';

/**
 * EvmChain.transfers names a payment routed through a contract by its payer: in one transaction a
 * router pulls the payer's USDT (Transfer(payer → router)) and sends it on (Transfer(router →
 * deposit)); the deposit's transfer carries the payer among its otherPayers, whom the deposits
 * screen as its `from` (functions/deposits/deposit-chain.ts payersOf). A node answering eth_getLogs
 * with those logs (JSON-RPC over a real socket, batches as viem sends them).
 */
const USDT = getAddress('0xdac17f958d2ee523a2206206994597c13d831ec7');
const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const PAYER = getAddress(`0x${'a1'.repeat(20)}`);
const ROUTER = getAddress(`0x${'c3'.repeat(20)}`);
const DEPOSIT = getAddress(`0x${'d4'.repeat(20)}`);
const OTHER = getAddress(`0x${'e5'.repeat(20)}`);
const BLOCK = 101;
const txHash = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;

const log = (tx: number, logIndex: number, from: string, to: string, amount: bigint) => ({
  address: USDT.toLowerCase(),
  topics: [TRANSFER_TOPIC, pad(from.toLowerCase() as `0x${string}`), pad(to.toLowerCase() as `0x${string}`)],
  data: numberToHex(amount, { size: 32 }),
  blockNumber: numberToHex(BLOCK),
  blockHash: `0x${'bb'.repeat(32)}`,
  transactionHash: txHash(tx),
  transactionIndex: numberToHex(tx),
  logIndex: numberToHex(logIndex),
  removed: false,
});

const LOGS = [log(1, 0, PAYER, ROUTER, 5_000_000n), log(1, 1, ROUTER, DEPOSIT, 5_000_000n), log(2, 2, OTHER, DEPOSIT, 2_000_000n)];
let server: Server;
let chain: EvmChain;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const calls = JSON.parse(body) as { id: number; method: string }[] | { id: number; method: string };
      const answer = (call: { id: number; method: string }) => ({
        jsonrpc: '2.0',
        id: call.id,
        result: call.method === 'eth_getLogs' ? LOGS : call.method === 'eth_getBlockByNumber' ? { number: numberToHex(BLOCK), hash: `0x${'bb'.repeat(32)}` } : call.method === 'eth_chainId' ? '0x1' : null,
      });
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(Array.isArray(calls) ? calls.map(answer) : answer(calls)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  chain = new EvmChain({ rpcUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, finalizedTag: true, confirmations: 2, maxBlockRange: 1000, tokenDecimals: 6, tokenControls: 'tether' });
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('EvmChain.transfers', () => {
  it("names each transfer's transaction's other senders as its otherPayers: the payer behind a router is screened with the router", async () => {
    const transfers = await chain.transfers(USDT, BLOCK, BLOCK);

    expect(transfers.map(({ txHash: tx, from, to, otherPayers }) => ({ tx, from, to, otherPayers }))).toEqual([
      { tx: txHash(1), from: PAYER, to: ROUTER, otherPayers: [ROUTER] },
      { tx: txHash(1), from: ROUTER, to: DEPOSIT, otherPayers: [PAYER] },
      { tx: txHash(2), from: OTHER, to: DEPOSIT, otherPayers: undefined },
    ]);
  });

  it('finds the payer behind the router when only the deposit is wanted: the unwanted log of the same transaction still names its sender', async () => {
    const wanted = await chain.transfers(USDT, BLOCK, BLOCK, { afterRead: async () => undefined, mayWant: (address) => address === DEPOSIT.toLowerCase() });

    expect(wanted.map(({ from, otherPayers }) => ({ from, otherPayers }))).toEqual([
      { from: ROUTER, otherPayers: [PAYER] },
      { from: OTHER, otherPayers: undefined },
    ]);
  });
});
