import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EvmChain } from '#functions/networks/evm/evm-chain';
import { ADDRESS_KIND, ETHEREUM_USDT_CONTRACT, EvmNode, syntheticEvmAddress } from '../../bench/evm-node.ts';

/**
 * EvmChain's reading of Transfer logs against a node that refuses answers of more than 5 logs, as
 * Infura and Alchemy refuse more than 10,000: the bench's stand-in node (bench/evm-node.ts), since
 * anvil answers any range. Blocks 101–104 hold 3 transfers each, the first of each to a deposit.
 */
const HEAD = 100;
const deposits = Array.from({ length: 4 }, (_, i) => syntheticEvmAddress(ADDRESS_KIND.deposit, i));
const node = new EvmNode();
let chain: EvmChain;

beforeAll(async () => {
  const url = await node.start({ head: HEAD, chainId: 1, transfersPerBlock: 3, hitAddresses: deposits, hitEvery: 3, finalizedDepth: 2, maxLogsPerResponse: 5 });
  await node.mine(4);
  chain = new EvmChain({ rpcUrl: url, finalizedTag: true, confirmations: 2, maxBlockRange: 1000, tokenDecimals: 6, tokenControls: 'tether' });
});
afterAll(() => node.close());

describe('EvmChain.transfers', () => {
  it('reads every Transfer of a refused range in halves, EIP-55 addresses and amounts as logged, and asks the narrower width from then on', async () => {
    const transfers = await chain.transfers(ETHEREUM_USDT_CONTRACT, HEAD - 1, HEAD + 4);
    expect(transfers).toHaveLength(12);
    expect(transfers.map((transfer) => transfer.blockNumber)).toEqual([101, 101, 101, 102, 102, 102, 103, 103, 103, 104, 104, 104]);
    expect(transfers.filter((_, n) => n % 3 === 0).map((transfer) => transfer.to)).toEqual(deposits);
    expect({ ...transfers[4]! }).toMatchObject({
      from: syntheticEvmAddress(ADDRESS_KIND.payer, 4),
      to: syntheticEvmAddress(ADDRESS_KIND.stranger, 4),
      // The node logs (n % 1000 + 1) USDT and a half for its n-th transfer.
      amount: 5_500_000n,
      eventIndex: 0,
      contract: ETHEREUM_USDT_CONTRACT,
    });
    expect(transfers[4]!.from).toMatch(/[A-F]/);
    const refused = (await node.stats()).refusedGetLogs;
    // Blocks 99–104, then 102–104, then 102–103 refused, each once: a refused range is split at
    // once, not asked again by viem's retries (twice more, 150 and 300 ms later).
    expect(refused).toBe(3);

    expect(await chain.transfers(ETHEREUM_USDT_CONTRACT, HEAD - 1, HEAD + 4)).toEqual(transfers);
    expect((await node.stats()).refusedGetLogs).toBe(refused);
  });

  it('decodes only the transfers whose recipient the filter may want, asking it in lower case once the logs are read', async () => {
    const all = await chain.transfers(ETHEREUM_USDT_CONTRACT, HEAD - 1, HEAD + 4);
    const calls: string[] = [];
    const wanted = new Set(deposits.slice(1, 3).map((address) => address.toLowerCase()));
    const some = await chain.transfers(ETHEREUM_USDT_CONTRACT, HEAD - 1, HEAD + 4, {
      afterRead: async () => void calls.push('afterRead'),
      mayWant: (address) => {
        calls.push(address);
        return wanted.has(address);
      },
    });

    expect(some).toEqual(all.filter((transfer) => wanted.has(transfer.to.toLowerCase())));
    expect(some.map((transfer) => transfer.to)).toEqual(deposits.slice(1, 3));
    // Asked once the read is done, then once per log, with the recipient as the raw log holds it.
    expect(calls[0]).toBe('afterRead');
    expect(calls.slice(1)).toEqual(all.map((transfer) => transfer.to.toLowerCase()));
  });
});

describe('EvmChain.transfers behind a provider that rate-limits', () => {
  it('takes a 429 for patience, not for a range too wide: five of them leave the next read of 1,000 blocks one request', async () => {
    let refuseNext = 0;
    const logRanges: number[] = [];
    // A provider answering every page empty, its blocks there, except the requests it throttles.
    const provider = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (refuseNext > 0) {
          refuseNext--;
          response.writeHead(429, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }));
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        const calls: { id: unknown; method: string; params: [{ fromBlock: string; toBlock: string } | string] }[] = Array.isArray(body) ? body : [body];
        const answers = calls.map((call) => {
          if (call.method !== 'eth_getLogs') return { jsonrpc: '2.0', id: call.id, result: { number: call.params[0], hash: `0x${'1'.repeat(64)}` } };
          const { fromBlock, toBlock } = call.params[0] as { fromBlock: string; toBlock: string };
          logRanges.push(Number(toBlock) - Number(fromBlock) + 1);
          return { jsonrpc: '2.0', id: call.id, result: [] };
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
      });
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
    try {
      const throttled = new EvmChain({ rpcUrl: `http://127.0.0.1:${(provider.address() as AddressInfo).port}`, finalizedTag: false, confirmations: 3, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'none' });
      for (let i = 0; i < 5; i++) {
        refuseNext = 1;
        await throttled.transfers(ETHEREUM_USDT_CONTRACT, 0, 999);
      }
      logRanges.length = 0;

      await throttled.transfers(ETHEREUM_USDT_CONTRACT, 0, 999);

      expect(logRanges).toEqual([1_000]);
    } finally {
      await new Promise<void>((resolve) => provider.close(() => resolve()));
    }
  });
});

/** A JSON-RPC provider on loopback answering each call (batched or not) as `answer` says, with an
 * EvmChain over it, for the length of `use`. */
async function withScriptedProvider(answer: (method: string) => { result: unknown } | { error: { code: number; message: string } }, use: (chain: EvmChain) => Promise<void>): Promise<void> {
  const provider = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const calls: { id: unknown; method: string }[] = Array.isArray(body) ? body : [body];
      const answers = calls.map((call) => ({ jsonrpc: '2.0', id: call.id, ...answer(call.method) }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  try {
    const rpcUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
    await use(new EvmChain({ rpcUrl, finalizedTag: true, confirmations: 1, maxBlockRange: 1_000, tokenDecimals: 6, tokenControls: 'tether' }));
  } finally {
    await new Promise<void>((resolve) => provider.close(() => resolve()));
  }
}

describe("EvmChain's reads of the issuer's controls", () => {
  it("names the tokenControls setting to change when a Geth-based node reverts the read (-32000 'execution reverted', no data), as Arbitrum's does for a function the contract lacks", async () => {
    await withScriptedProvider(
      (method) => (method === 'eth_call' ? { error: { code: -32000, message: 'execution reverted' } } : { result: '0x1' }),
      async (misnamed) => {
        await expect(misnamed.frozenAmong(ETHEREUM_USDT_CONTRACT, [deposits[0]!])).rejects.toThrow(/tokenControls 'tether'.*'blocked-list'/s);
        await expect(misnamed.tokenPaused(ETHEREUM_USDT_CONTRACT)).rejects.toThrow(/tokenControls 'tether'/);
      },
    );
  });
});

describe('EvmChain.receipt', () => {
  it('lists a log with the Transfer topic that is not one (no amount) by its emitter, beside the real transfer, rather than refusing the receipt', async () => {
    // What a node answers for a payer's contract that pays a deposit in USDT and emits
    // LOG3(Transfer, a, b) with no data itself: decoding it threw, and a reorganisation under such a
    // deposit stopped the scanner for every company.
    const txHash = `0x${'ab'.repeat(32)}`;
    const blockHash = `0x${'cd'.repeat(32)}`;
    const word = (address: string) => `0x${address.slice(2).toLowerCase().padStart(64, '0')}`;
    const transferTopic = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
    const payer = syntheticEvmAddress(ADDRESS_KIND.payer, 1);
    const forger = syntheticEvmAddress(ADDRESS_KIND.stranger, 9);
    const log = (address: string, data: string, logIndex: number) => ({
      address,
      topics: [transferTopic, word(payer), word(deposits[0]!)],
      data,
      blockNumber: '0x65',
      blockHash,
      transactionHash: txHash,
      transactionIndex: '0x0',
      logIndex: `0x${logIndex.toString(16)}`,
      removed: false,
    });
    const receipt = {
      transactionHash: txHash,
      transactionIndex: '0x0',
      blockHash,
      blockNumber: '0x65',
      from: payer,
      to: forger,
      cumulativeGasUsed: '0xc350',
      gasUsed: '0xc350',
      effectiveGasPrice: '0x3b9aca00',
      contractAddress: null,
      logs: [log(ETHEREUM_USDT_CONTRACT, `0x${(7_000_000).toString(16).padStart(64, '0')}`, 0), log(forger, '0x', 1)],
      logsBloom: `0x${'0'.repeat(512)}`,
      status: '0x1',
      type: '0x2',
    };
    await withScriptedProvider(
      (method) => ({ result: method === 'eth_getTransactionReceipt' ? receipt : '0x1' }),
      async (reader) => {
        expect(await reader.receipt(txHash)).toMatchObject({
          result: 'SUCCESS',
          tokenTransfers: [{ contract: ETHEREUM_USDT_CONTRACT, to: deposits[0], amount: 7_000_000n, eventIndex: 0 }],
          unreadableTransfers: [forger],
        });
      },
    );
  });
});
