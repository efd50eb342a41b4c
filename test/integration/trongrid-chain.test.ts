import { TronWeb } from 'tronweb';
import { describe, expect, it } from 'vitest';
import { ChainResponseError, ChainUnavailableError, TronGridChain, type TronGridChainOptions } from '#functions/networks/tron/trongrid-chain';
import { useScriptedServer, type ScriptedReply, type SeenRequest } from '../support/scripted-server.ts';

/**
 * A TronGrid stand-in on loopback. Every body below follows TronGrid's documented formats:
 * java-tron's wallet/getnowblock, wallet/getblock and wallet/gettransactioninfobyid (tronprotocol
 * documentation-en, api/http/block-and-tx-query) and TronGrid v1 "Get events by contract address"
 * (developers.tron.network: data[] with transaction_id, event_index, block_number,
 * block_timestamp, contract_address, event_name, event, result, result_type, _unconfirmed;
 * meta with at, page_size, fingerprint, links.next).
 */

const server = useScriptedServer();

const chain = (options: Partial<TronGridChainOptions> = {}) =>
  new TronGridChain({ baseUrl: server.baseUrl, timeoutMs: 500, backoffBaseMs: 5, maxBackoffMs: 20, ...options });

const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const USDT_HEX = '41a614f803b6fd780986a42c78ec9c7f77e6ded13c';
/** A look-alike token: same event, another contract (tron-notes: counterfeit "USDT" exists). */
const COUNTERFEIT = 'TSeJkUh4Qv67VNFwY8LaAxERygNdy6NQZK';
const ALICE = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';
const BOB = 'TYJPRrdB5APNeRs4R7fYZSwW3TcrTKw2gx';
const API_KEY = '5f0c3b3e-7a6e-4d1b-9c52-2f1e0c7a9d11';

/** Event results carry addresses as 0x + 20 bytes; tronweb is the independent reference here. */
const evm = (base58: string) => `0x${TronWeb.address.toHex(base58).slice(2)}`;
const txId = (n: number) => n.toString(16).padStart(64, '0');

/** Slot times are 3 s apart; block 66987565 is the documented Nile example block. */
const BASE_BLOCK = 66_987_565;
const BASE_TIME = 1_777_445_121_000;
const blockTime = (number: number) => BASE_TIME + (number - BASE_BLOCK) * 3_000;
const blockId = (number: number) => `${number.toString(16).padStart(16, '0')}${'52bfa4b2814f816fd2e57af5b98a33d60d8630a03a908e0e'}`;

function block(number: number) {
  return {
    blockID: blockId(number),
    block_header: {
      raw_data: {
        number,
        txTrieRoot: 'faf8fe3858339ead25cc892461c82a59b84dca4a51c45b026676bf3f45a352a2',
        witness_address: '41b2f713d57dbcec679d93a8849fa0cd0e4db594ba',
        parentHash: blockId(number - 1),
        version: 34,
        timestamp: blockTime(number),
      },
      witness_signature: '5b3cf6cb15d52947989f7726f4907a144b39ccd667a1a0f98707b40cdfe65b96173ddf34ae8dcc5e78f136e0cf903a15c7128984aa2191f02333209d1879d3f900',
    },
  };
}

interface EventSpec {
  tx: number;
  index?: number;
  block: number;
  from?: string;
  to?: string;
  value: string;
  contract?: string;
  unconfirmed?: boolean;
}

function transferEvent({ tx, index = 0, block: number, from = ALICE, to = BOB, value, contract = USDT, unconfirmed }: EventSpec) {
  return {
    block_number: number,
    block_timestamp: blockTime(number),
    caller_contract_address: contract,
    contract_address: contract,
    event_index: index,
    event_name: 'Transfer',
    result: { '0': evm(from), '1': evm(to), '2': value, from: evm(from), to: evm(to), value },
    result_type: { from: 'address', to: 'address', value: 'uint256' },
    event: 'Transfer(address indexed from, address indexed to, uint256 value)',
    transaction_id: txId(tx),
    ...(unconfirmed ? { _unconfirmed: true } : {}),
  };
}

function eventPage(data: unknown[], next?: { fingerprint?: string; link?: string }) {
  return {
    data,
    success: true,
    meta: {
      at: BASE_TIME + 60_000,
      ...(next?.fingerprint ? { fingerprint: next.fingerprint } : {}),
      ...(next?.link ? { links: { next: next.link } } : {}),
      page_size: data.length,
    },
  };
}

/** Shaped like the documented Nile example: a contract call whose receipt carries the VM's verdict. */
function transactionInfo(tx: string, outcome: 'SUCCESS' | 'REVERT') {
  const base = {
    id: tx,
    fee: 5_254_500,
    blockNumber: BASE_BLOCK,
    blockTimeStamp: BASE_TIME,
    contractResult: [outcome === 'SUCCESS' ? '0000000000000000000000000000000000000000000000000000000000000001' : ''],
    contract_address: USDT_HEX,
  };
  if (outcome === 'SUCCESS') {
    return {
      ...base,
      receipt: { energy_fee: 4_458_500, energy_usage_total: 44_585, net_fee: 796_000, result: 'SUCCESS' },
      log: [
        {
          address: USDT_HEX.slice(2),
          topics: [
            'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef',
            `000000000000000000000000${evm(ALICE).slice(2)}`,
            `000000000000000000000000${evm(BOB).slice(2)}`,
          ],
          data: '00000000000000000000000000000000000000000000000000000000000f4240',
        },
      ],
    };
  }
  return {
    ...base,
    receipt: { energy_fee: 2_000_000, energy_usage_total: 20_000, net_fee: 345_000, result: 'REVERT' },
    result: 'FAILED',
    resMessage: '5452433230303a207472616e7366657220616d6f756e7420657863656564732062616c616e6365',
  };
}

async function caught(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(error)}`);
  return error;
}

/** Every message in an error's cause chain, AggregateError members included. */
function allText(error: unknown): string {
  if (error instanceof AggregateError) return [error.message, error.stack, ...error.errors.map(allText), allText(error.cause)].join('\n');
  if (error instanceof Error) return [error.message, error.stack, JSON.stringify(error), allText(error.cause)].join('\n');
  return error === undefined ? '' : String(error);
}

describe('TronGridChain blocks', () => {
  it('maps wallet/getnowblock to the latest block: number, blockID, ISO time', async () => {
    server.script = [{ body: block(BASE_BLOCK) }];

    const latest = await chain().latestBlock();

    expect(latest).toEqual({ number: BASE_BLOCK, hash: blockId(BASE_BLOCK), timestamp: new Date(BASE_TIME).toISOString() });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /wallet/getnowblock']);
  });

  it('maps walletsolidity/getnowblock to the solidified block', async () => {
    server.script = [{ body: block(BASE_BLOCK - 19) }];

    const solidified = await chain().finalBlock();

    expect(solidified).toEqual({ number: BASE_BLOCK - 19, hash: blockId(BASE_BLOCK - 19), timestamp: new Date(blockTime(BASE_BLOCK - 19)).toISOString() });
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /walletsolidity/getnowblock']);
  });

  it('keeps a path prefix in the base URL', async () => {
    server.script = [{ body: block(BASE_BLOCK) }];

    await chain({ baseUrl: `${server.baseUrl}/tron/` }).latestBlock();

    expect(server.requests.map((r) => r.path)).toEqual(['/tron/wallet/getnowblock']);
  });

  it('refuses {} from getnowblock instead of inventing a block', async () => {
    server.script = [{ body: {} }];

    await expect(chain().latestBlock()).rejects.toBeInstanceOf(ChainResponseError);
  });
});

describe('TronGridChain event index', () => {
  it("answers the newest block in TronGrid's event database, from /v1/blocks/latest/events", async () => {
    // Any contract's events: the latest block's, each with its block_number.
    server.script = [{ body: eventPage([transferEvent({ tx: 1, block: BASE_BLOCK - 30, value: '5', contract: COUNTERFEIT })]) }];

    expect(await chain().indexedThrough()).toEqual({ number: BASE_BLOCK - 30, timestamp: new Date(blockTime(BASE_BLOCK - 30)).toISOString() });
    // As tronweb's getEventsOfLatestBlock asks it: no other parameter.
    expect(server.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`)).toEqual(['GET /v1/blocks/latest/events?']);
  });

  it('answers null for an answer with no event, or one without its block, rather than guess how far the index reaches; a TronGrid that does not answer is an error', async () => {
    server.script = [{ body: eventPage([]) }];
    expect(await chain().indexedThrough()).toBeNull();

    server.script = [{ body: eventPage([{ ...transferEvent({ tx: 1, block: BASE_BLOCK, value: '5' }), block_number: undefined }]) }];
    expect(await chain().indexedThrough()).toBeNull();

    server.script = [{ status: 503, body: {} }, { status: 503, body: {} }, { status: 503, body: {} }];
    await expect(chain({ maxAttempts: 3 }).indexedThrough()).rejects.toBeInstanceOf(ChainUnavailableError);
  });
});

describe('TronGridChain transfers', () => {
  const FROM = BASE_BLOCK;
  const TO = BASE_BLOCK + 10;
  const BIG = '123456789012345678901234567890';

  /** Three pages: page 1 names the next by meta.fingerprint, page 2 only by meta.links.next. */
  function threePages(request: SeenRequest): ScriptedReply {
    if (request.path === '/wallet/getblock') {
      const number = Number((request.body as { id_or_num: string }).id_or_num);
      return { body: block(number) };
    }
    const fingerprint = request.query.get('fingerprint');
    if (fingerprint === null) {
      return {
        body: eventPage(
          [
            transferEvent({ tx: 1, block: FROM, value: '1000000' }),
            transferEvent({ tx: 2, block: FROM + 1, value: '2500000', contract: COUNTERFEIT }),
            transferEvent({ tx: 3, index: 0, block: FROM + 2, from: BOB, to: ALICE, value: BIG }),
          ],
          { fingerprint: 'fp-page-2' },
        ),
      };
    }
    if (fingerprint === 'fp-page-2') {
      return {
        body: eventPage(
          [
            // Read again where the index moved between two page reads.
            transferEvent({ tx: 3, index: 0, block: FROM + 2, from: BOB, to: ALICE, value: BIG }),
            transferEvent({ tx: 3, index: 1, block: FROM + 2, value: '7' }),
            { ...transferEvent({ tx: 4, block: FROM + 5, value: '42' }), contract_address: USDT_HEX },
          ],
          { link: `https://api.trongrid.io/v1/contracts/${USDT}/events?event_name=Transfer&fingerprint=fp-page-3&limit=3` },
        ),
      };
    }
    if (fingerprint === 'fp-page-3') {
      return {
        body: eventPage([
          transferEvent({ tx: 5, block: TO, value: '999', unconfirmed: true }),
          // Outside the range asked for: TronGrid's timestamp filter is not the contract here.
          transferEvent({ tx: 6, block: TO + 1, value: '1', unconfirmed: true }),
        ]),
      };
    }
    return { status: 400, body: { success: false, error: `unknown fingerprint ${fingerprint}` } };
  }

  it('reads every Transfer of the contract over a block range across 3 fingerprinted pages, once each, in order', async () => {
    server.script = threePages;

    const transfers = await chain({ pageSize: 3 }).transfers(USDT, FROM, TO);

    expect(transfers).toEqual([
      { txHash: txId(1), eventIndex: 0, blockNumber: FROM, contract: USDT, from: ALICE, to: BOB, amount: 1_000_000n },
      // One transaction, two senders: each the other's other payer.
      { txHash: txId(3), eventIndex: 0, blockNumber: FROM + 2, contract: USDT, from: BOB, to: ALICE, amount: 123456789012345678901234567890n, otherPayers: [ALICE] },
      { txHash: txId(3), eventIndex: 1, blockNumber: FROM + 2, contract: USDT, from: ALICE, to: BOB, amount: 7n, otherPayers: [BOB] },
      { txHash: txId(4), eventIndex: 0, blockNumber: FROM + 5, contract: USDT, from: ALICE, to: BOB, amount: 42n },
      { txHash: txId(5), eventIndex: 0, blockNumber: TO, contract: USDT, from: ALICE, to: BOB, amount: 999n },
    ]);
  });

  it('asks for the two blocks’ timestamps, then one ascending Transfer window paged by fingerprint', async () => {
    server.script = threePages;

    await chain({ pageSize: 3 }).transfers(USDT, FROM, TO);

    const blockBodies = server.requests.filter((r) => r.path === '/wallet/getblock').map((r) => r.body);
    expect(blockBodies).toEqual(
      expect.arrayContaining([
        { id_or_num: String(FROM), detail: false },
        { id_or_num: String(TO), detail: false },
      ]),
    );
    const pages = server.requests.filter((r) => r.path === `/v1/contracts/${USDT}/events`);
    expect(pages.map((r) => r.query.get('fingerprint'))).toEqual([null, 'fp-page-2', 'fp-page-3']);
    for (const page of pages) {
      expect(page.method).toBe('GET');
      expect(page.query.get('event_name')).toBe('Transfer');
      expect(page.query.get('order_by')).toBe('block_timestamp,asc');
      expect(page.query.get('limit')).toBe('3');
      expect(Number(page.query.get('min_block_timestamp'))).toBeLessThanOrEqual(blockTime(FROM));
      expect(Number(page.query.get('min_block_timestamp'))).toBeGreaterThan(blockTime(FROM - 1));
      expect(Number(page.query.get('max_block_timestamp'))).toBeGreaterThanOrEqual(blockTime(TO));
      expect(Number(page.query.get('max_block_timestamp'))).toBeLessThan(blockTime(TO + 1));
      expect(page.query.has('only_confirmed')).toBe(false);
    }
    expect(server.requests).toHaveLength(5);
  });

  it("names a payment routed through a contract by its payer: the transaction's other senders are each transfer's otherPayers", async () => {
    // ALICE's USDT pulled by a router (COUNTERFEIT's address stands for it), then sent on to BOB, in one transaction; CAROL's (any other address) stands alone.
    const CAROL = USDT;
    server.script = (request) =>
      request.query.get('block_number') === String(FROM)
        ? {
            body: eventPage([
              transferEvent({ tx: 9, index: 0, block: FROM, from: ALICE, to: COUNTERFEIT, value: '5' }),
              transferEvent({ tx: 9, index: 1, block: FROM, from: COUNTERFEIT, to: BOB, value: '5' }),
              transferEvent({ tx: 10, index: 0, block: FROM, from: CAROL, to: BOB, value: '2' }),
            ]),
          }
        : { body: eventPage([]) };

    const transfers = await chain().transfers(USDT, FROM, FROM);

    expect(transfers.map(({ txHash, from, to, otherPayers }) => ({ txHash, from, to, otherPayers }))).toEqual([
      { txHash: txId(9), from: ALICE, to: COUNTERFEIT, otherPayers: [COUNTERFEIT] },
      { txHash: txId(9), from: COUNTERFEIT, to: BOB, otherPayers: [ALICE] },
      { txHash: txId(10), from: CAROL, to: BOB, otherPayers: undefined },
    ]);
  });

  it('asks block by block with block_number for a range of up to 3 blocks', async () => {
    server.script = (request) =>
      request.query.get('block_number') === String(FROM + 1)
        ? { body: eventPage([transferEvent({ tx: 8, block: FROM + 1, value: '5' })]) }
        : { body: eventPage([]) };

    const transfers = await chain().transfers(USDT, FROM, FROM + 1);

    expect(transfers).toEqual([{ txHash: txId(8), eventIndex: 0, blockNumber: FROM + 1, contract: USDT, from: ALICE, to: BOB, amount: 5n }]);
    expect(server.requests.map((r) => [r.path, r.query.get('block_number'), r.query.get('limit')])).toEqual([
      [`/v1/contracts/${USDT}/events`, String(FROM), '200'],
      [`/v1/contracts/${USDT}/events`, String(FROM + 1), '200'],
    ]);
  });

  it('throws instead of returning a partial range when a later page keeps failing', async () => {
    server.script = (request) =>
      request.query.get('fingerprint') === null
        ? { body: eventPage([transferEvent({ tx: 1, block: FROM, value: '1' })], { fingerprint: 'next' }) }
        : { status: 503, body: '' };

    const error = await caught(chain({ maxAttempts: 3 }).transfers(USDT, FROM, FROM));

    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect((error as ChainUnavailableError).path).toBe(`/v1/contracts/${USDT}/events`);
    expect(server.requests).toHaveLength(4);
  });

  it('refuses a value given as a JSON number, which would already have lost precision', async () => {
    const event = transferEvent({ tx: 1, block: FROM, value: '1' });
    server.script = [{ body: eventPage([{ ...event, result: { ...event.result, value: 9007199254740993 } }]) }];

    const error = await caught(chain().transfers(USDT, FROM, FROM));

    expect(error).toBeInstanceOf(ChainResponseError);
    expect(error.message).toMatch(/result\.value .*not a decimal string/);
  });

  it('treats success: false from the events API as an error, without retrying', async () => {
    server.script = [{ body: { success: false, error: 'Invalid contract address', statusCode: 400 } }];

    await expect(chain().transfers(USDT, FROM, FROM)).rejects.toBeInstanceOf(ChainResponseError);
    expect(server.requests).toHaveLength(1);
  });
});

describe('TronGridChain retries', () => {
  it('waits as long as Retry-After says after a 429, then retries and succeeds', async () => {
    server.script = [{ status: 429, headers: { 'retry-after': '1' }, body: { success: false, error: 'rate limited' } }, { body: block(BASE_BLOCK) }];
    const started = Date.now();

    const latest = await chain().latestBlock();

    expect(latest.number).toBe(BASE_BLOCK);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);
  });

  it('gives up at once when Retry-After asks for more than 30 s', async () => {
    server.script = [{ status: 429, headers: { 'retry-after': '3600' }, body: '' }, { body: block(BASE_BLOCK) }];

    const error = await caught(chain().latestBlock());

    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(error.message).toMatch(/3600 s/);
    expect(server.requests).toHaveLength(1);
  });

  it('retries two 5xx answers and succeeds on the third attempt', async () => {
    server.script = [{ status: 502, body: '<html>Bad Gateway</html>' }, { status: 503, body: '' }, { body: block(BASE_BLOCK) }];

    const latest = await chain().latestBlock();

    expect(latest.number).toBe(BASE_BLOCK);
    expect(server.requests).toHaveLength(3);
  });

  it('retries an answer slower than timeoutMs and succeeds when the next one is in time', async () => {
    server.script = [{ body: block(BASE_BLOCK), delayMs: 400 }, { body: block(BASE_BLOCK) }];

    const latest = await chain({ timeoutMs: 100 }).latestBlock();

    expect(latest.number).toBe(BASE_BLOCK);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up with ChainUnavailableError, carrying the path and each cause, when no attempt answers within timeoutMs', async () => {
    server.script = [0, 1, 2].map(() => ({ body: block(BASE_BLOCK), delayMs: 400 }));
    const started = Date.now();

    const error = await caught(chain({ timeoutMs: 100, maxAttempts: 3 }).finalBlock());

    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(error).toMatchObject({ path: '/walletsolidity/getnowblock', attempts: 3 });
    expect(error.message).toMatch(/timed out/);
    expect(error.cause).toBeInstanceOf(AggregateError);
    expect((error.cause as AggregateError).errors).toHaveLength(3);
    expect(server.requests).toHaveLength(3);
    expect(Date.now() - started).toBeLessThan(3 * 400);
  });

  it('backs off and retries a 403, which TronGrid answers when a key is over its limits', async () => {
    server.script = [{ status: 403, body: { Error: 'rate limited' } }, { body: block(BASE_BLOCK) }];

    const latest = await chain().latestBlock();

    expect(latest.number).toBe(BASE_BLOCK);
    expect(server.requests).toHaveLength(2);
  });

  it('does not retry a 400', async () => {
    server.script = [{ status: 400, body: { Error: 'bad request' } }, { body: block(BASE_BLOCK) }];

    const error = await caught(chain().latestBlock());

    expect(error).toBeInstanceOf(ChainResponseError);
    expect(error).toMatchObject({ path: '/wallet/getnowblock', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it("treats java-tron's 200 with an Error field as an error, without retrying", async () => {
    server.script = [{ body: { Error: 'class org.tron.core.services.http.JsonFormat$ParseException : bad value' } }];

    const error = await caught(chain().receipt(txId(1)));

    expect(error).toBeInstanceOf(ChainResponseError);
    expect(error.message).toMatch(/ParseException/);
    expect(server.requests).toHaveLength(1);
  });
});

// The full node's receipt (seen in a block) and the solidity node's (in a solidified block) are
// the same TransactionInfo read from two nodes.
describe.each([
  ['receipt', 'full node', '/wallet/gettransactioninfobyid'],
  ['finalReceipt', 'solidity node', '/walletsolidity/gettransactioninfobyid'],
] as const)('TronGridChain %s', (read, node, path) => {
  it(`reads a successful TRC-20 transfer from the ${node}: ${path}`, async () => {
    const tx = txId(0xabc);
    server.script = [{ body: transactionInfo(tx, 'SUCCESS') }];

    const receipt = await chain()[read](tx);

    // Its Transfer log read as what was delivered (1 USDT to Bob), for a payout's deliveredAmount;
    // its `fee` (the TRX burnt for energy and bandwidth) as what it cost, for its networkCost.
    expect(receipt).toEqual({ txHash: tx, blockNumber: BASE_BLOCK, result: 'SUCCESS', tokenTransfers: [{ contract: USDT, to: BOB, amount: 1_000_000n }], feePayerCost: { asset: 'TRX', decimals: 6, amount: 5_254_500n } });
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([['POST', path, { value: tx }]]);
  });

  it('reports the VM verdict REVERT, not the top-level FAILED', async () => {
    const tx = txId(0xdef);
    server.script = [{ body: transactionInfo(tx, 'REVERT') }];

    const receipt = await chain()[read](tx);

    expect(receipt).toEqual({ txHash: tx, blockNumber: BASE_BLOCK, result: 'REVERT', tokenTransfers: [], feePayerCost: { asset: 'TRX', decimals: 6, amount: 5_254_500n } });
  });

  it('reads a transaction that burnt nothing (its resources staked: no `fee`) as costing 0 TRX, and refuses a fee that is not a whole number of sun', async () => {
    const { fee: _fee, ...staked } = transactionInfo(txId(0xabc), 'SUCCESS');
    server.script = [{ body: staked }];
    expect((await chain()[read](txId(0xabc)))!.feePayerCost).toEqual({ asset: 'TRX', decimals: 6, amount: 0n });

    server.script = [{ body: { ...transactionInfo(txId(0xabc), 'SUCCESS'), fee: 1.5 } }];
    await expect(chain()[read](txId(0xabc))).rejects.toThrow(/answered fee 1.5/);
  });

  it('lists a log with the Transfer topic that is not one (no data) by its emitter, beside the real transfer, rather than refusing the receipt', async () => {
    // A payer's own contract emits LOG3(Transfer, a, b) with no data beside its USDT transfer to a
    // deposit address: refusing the receipt stopped every TRON deposit's confirmation.
    const tx = txId(0xbad);
    const { log, ...info } = transactionInfo(tx, 'SUCCESS') as ReturnType<typeof transactionInfo> & { log: object[] };
    const topics = ['ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `000000000000000000000000${evm(ALICE).slice(2)}`, `000000000000000000000000${evm(BOB).slice(2)}`];
    const forged = { address: `41${evm(COUNTERFEIT).slice(2)}`, topics };
    server.script = [{ body: { ...info, log: [forged, ...log, { ...forged, data: '01' }] } }];

    const receipt = await chain()[read](tx);

    expect(receipt).toMatchObject({ result: 'SUCCESS', tokenTransfers: [{ contract: USDT, to: BOB, amount: 1_000_000n }], unreadableTransfers: [COUNTERFEIT, COUNTERFEIT] });
  });

  it(`returns null for a transaction the ${node} does not know ({})`, async () => {
    server.script = [{ body: {} }];

    await expect(chain()[read](txId(0x123))).resolves.toBeNull();
  });
});

describe('TronGridChain API key', () => {
  it('sends TRON-PRO-API-KEY when configured, and no such header otherwise', async () => {
    server.script = [{ body: block(BASE_BLOCK) }, { body: block(BASE_BLOCK) }];

    await chain({ apiKey: async () => API_KEY }).latestBlock();
    await chain().latestBlock();

    expect(server.requests.map((r) => r.headers['tron-pro-api-key'])).toEqual([API_KEY, undefined]);
  });

  it('never puts the key into an error, its causes or its path', async () => {
    server.script = [{ status: 503, body: '' }, { status: 503, body: '' }, { status: 401, body: { Error: 'unauthorized' } }];
    const keyed = chain({ apiKey: async () => API_KEY, maxAttempts: 2 });

    const unavailable = await caught(keyed.latestBlock());
    const refused = await caught(keyed.latestBlock());

    expect(unavailable).toBeInstanceOf(ChainUnavailableError);
    expect(refused).toBeInstanceOf(ChainResponseError);
    expect(server.requests.every((r) => r.headers['tron-pro-api-key'] === API_KEY)).toBe(true);
    for (const error of [unavailable, refused]) {
      expect(allText(error)).not.toContain(API_KEY);
      expect(String(error)).not.toContain(API_KEY);
    }
  });
});

describe('TronGridChain broadcast', () => {
  const signed = { txID: 'ab'.repeat(32), raw_data: {}, raw_data_hex: '00', signature: ['cd'.repeat(65)] };

  it('posts the signed transaction and treats DUP_TRANSACTION_ERROR as already sent', async () => {
    server.script = [{ body: { result: true, txid: signed.txID } }, { body: { code: 'DUP_TRANSACTION_ERROR', txid: signed.txID } }];

    expect(await chain().broadcast(signed)).toBe('accepted');
    expect(await chain().broadcast(signed)).toBe('duplicate');
    expect(server.requests.map((r) => [r.method, r.path])).toEqual([
      ['POST', '/wallet/broadcasttransaction'],
      ['POST', '/wallet/broadcasttransaction'],
    ]);
    expect(server.requests[0]!.body).toEqual(signed);
  });

  it('refuses with the decoded reason when the network rejects the transaction', async () => {
    server.script = [{ body: { result: false, code: 'SIGERROR', message: Buffer.from('validate signature error').toString('hex') } }];

    const error = await caught(chain().broadcast(signed));

    expect(error).toBeInstanceOf(ChainResponseError);
    expect(error.message).toContain('SIGERROR');
    expect(error.message).toContain('validate signature error');
  });
});

describe('TronGridChain trxBalance', () => {
  const holder = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';

  it("reads /wallet/getaccount's balance in sun, by base58 address", async () => {
    server.script = [{ body: { address: holder, balance: 15_000_000, create_time: 1_776_933_207_000 } }];
    expect(await chain().feeBalance(holder)).toBe(15_000_000n);
    expect(server.requests[0]).toMatchObject({ path: '/wallet/getaccount', body: { address: holder, visible: true } });
  });

  it('reads 0 for an account never activated ({}) or one holding no TRX (balance left out)', async () => {
    server.script = [{ body: {} }, { body: { address: holder, create_time: 1 } }];
    expect(await chain().feeBalance(holder)).toBe(0n);
    expect(await chain().feeBalance(holder)).toBe(0n);
  });

  it('refuses a balance that is not a whole number of sun', async () => {
    server.script = [{ body: { balance: '15' } }];
    expect(await caught(chain().feeBalance(holder))).toBeInstanceOf(ChainResponseError);
  });
});

describe('TronGridChain tokenBalance', () => {
  const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
  const holder = 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH';

  it('reads balanceOf(address) with a constant call and returns the 32-byte word as minor units', async () => {
    server.script = [{ body: { result: { result: true }, constant_result: [(123_456_789n).toString(16).padStart(64, '0')] } }];

    expect(await chain().tokenBalance(USDT_CONTRACT, holder)).toBe(123_456_789n);
    expect(server.requests[0]!.path).toBe('/wallet/triggerconstantcontract');
    expect(server.requests[0]!.body).toMatchObject({
      contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
      function_selector: 'balanceOf(address)',
    });
    // The parameter is the holder's 20-byte address, left-padded to one ABI word.
    expect((server.requests[0]!.body as { parameter: string }).parameter).toMatch(/^0{24}[0-9a-f]{40}$/);
  });

  it('refuses an answer without a result word', async () => {
    server.script = [{ body: { result: { result: true }, constant_result: [] } }];
    expect(await caught(chain().tokenBalance(USDT_CONTRACT, holder))).toBeInstanceOf(ChainResponseError);
  });

  const holders = [ALICE, BOB, COUNTERFEIT, USDT_CONTRACT];
  const word = (amount: bigint) => ({ result: { result: true }, constant_result: [amount.toString(16).padStart(64, '0')] });
  const holderOf = (request: SeenRequest) => TronWeb.address.fromHex(`41${(request.body as { parameter: string }).parameter.slice(24)}`);

  it('tokenBalances reads each distinct address once and maps it to its balance', async () => {
    server.script = (request) => ({ body: word(BigInt(holders.indexOf(holderOf(request)) + 1) * 1_000_000n) });

    const balances = await chain().tokenBalances(USDT_CONTRACT, [...holders, ALICE]);

    expect(balances).toEqual(new Map(holders.map((address, i) => [address, BigInt(i + 1) * 1_000_000n])));
    expect(server.requests).toHaveLength(new Set(holders).size);
  });

  it('tokenBalances rejects when one read fails, and starts no read after the failure', async () => {
    server.script = (request) => (holderOf(request) === ALICE ? { body: { Error: 'contract validate error' } } : { body: word(1n), delayMs: 50 });
    const many = Array.from({ length: 12 }, (_, i) => (i === 0 ? ALICE : TronWeb.address.fromHex(`41${(i + 1).toString(16).padStart(40, '0')}`)));

    expect(await caught(chain().tokenBalances(USDT_CONTRACT, many))).toBeInstanceOf(ChainResponseError);
    // The failing read came first; only the three reads already in flight beside it finished.
    expect(server.requests).toHaveLength(4);
  });
});

// TetherToken's issuer controls, read with constant calls as tokenBalance reads balanceOf: TronGrid
// answers java-tron's TransactionExtention (`result`, `energy_used`, `constant_result`, `transaction`).
describe('TronGridChain token controls', () => {
  const holders = [ALICE, BOB, COUNTERFEIT];
  const word = (value: 0 | 1) => ({ result: { result: true }, energy_used: 526, constant_result: [value.toString(16).padStart(64, '0')], transaction: { ret: [{}], visible: false, txID: txId(9) } });
  const asked = (request: SeenRequest) => TronWeb.address.fromHex(`41${(request.body as { parameter: string }).parameter.slice(24)}`);
  const hex = (text: string) => Buffer.from(text).toString('hex');
  // Every control is read on the contract USDT lives in now: first `deprecated()` (not, here; the
  // deprecation's own test below says otherwise), then the control itself.
  const selectorOf = (request: SeenRequest) => (request.body as { function_selector: string }).function_selector;
  type Answer = { body: unknown; status?: number };
  const notDeprecated = (answer: (request: SeenRequest) => Answer) => (request: SeenRequest) => (selectorOf(request) === 'deprecated()' ? { body: word(0) } : answer(request));
  const inTurn = (answers: Answer[]) => {
    let next = 0;
    return notDeprecated(() => answers[next++]!);
  };
  const controlReads = () => server.requests.filter((request) => selectorOf(request) !== 'deprecated()');

  it('frozenAmong asks isBlackListed(address) of each distinct address once, and answers those frozen', async () => {
    server.script = notDeprecated((request) => ({ body: word(asked(request) === BOB ? 1 : 0) }));

    const frozen = await chain().frozenAmong(USDT, [...holders, BOB]);

    expect(frozen).toEqual(new Set([BOB]));
    expect(controlReads()).toHaveLength(holders.length);
    for (const request of controlReads()) {
      expect([request.method, request.path]).toEqual(['POST', '/wallet/triggerconstantcontract']);
      expect(request.body).toMatchObject({ contract_address: USDT_HEX, function_selector: 'isBlackListed(address)' });
      // The address as one ABI word: its 20 bytes left-padded.
      expect((request.body as { parameter: string }).parameter).toBe(`${'0'.repeat(24)}${evm(asked(request)).slice(2)}`);
    }
    expect(new Set(controlReads().map(asked))).toEqual(new Set(holders));
  });

  it('frozenAmong of no address asks nothing', async () => {
    expect(await chain().frozenAmong(USDT, [])).toEqual(new Set());
    expect(server.requests).toHaveLength(0);
  });

  it('tokenPaused reads paused() with a constant call', async () => {
    server.script = inTurn([{ body: word(1) }, { body: word(0) }]);

    expect(await chain().tokenPaused(USDT)).toBe(true);
    expect(await chain().tokenPaused(USDT)).toBe(false);
    expect(controlReads().map((r) => [r.path, (r.body as { function_selector: string }).function_selector, (r.body as { contract_address: string }).contract_address])).toEqual([
      ['/wallet/triggerconstantcontract', 'paused()', USDT_HEX],
      ['/wallet/triggerconstantcontract', 'paused()', USDT_HEX],
    ]);
    // A constant call needs an existing caller: the contract's own address is one; no arguments.
    expect(controlReads()[0]!.body).toMatchObject({ owner_address: USDT_HEX, parameter: '' });
  });

  it('an HTTP error is thrown after the retries, never read as "not frozen" or "not paused"', async () => {
    server.script = notDeprecated((request) => (asked(request) === ALICE ? { status: 503, body: '' } : { body: word(0) }));

    const error = await caught(chain({ maxAttempts: 2 }).frozenAmong(USDT, holders));

    expect(error).toBeInstanceOf(ChainUnavailableError);
    expect(error).toMatchObject({ path: '/wallet/triggerconstantcontract' });
    server.script = inTurn([{ status: 502, body: '<html>Bad Gateway</html>' }, { status: 503, body: '' }]);
    expect(await caught(chain({ maxAttempts: 2 }).tokenPaused(USDT))).toBeInstanceOf(ChainUnavailableError);
  });

  it("a node's refusal or a reverted call is thrown: a contract without the view, or none at that address", async () => {
    server.script = inTurn([
      // No contract at the address: java-tron's refusal, its message hex-encoded.
      { body: { result: { code: 'CONTRACT_VALIDATE_ERROR', message: hex('No contract or not a valid smart contract') } } },
      // A token without isBlackListed (its fallback reverts): the VM's verdict, no word.
      { body: { result: { code: 'CONTRACT_EXE_ERROR', message: hex('REVERT opcode executed') }, energy_used: 200, constant_result: [''], transaction: { ret: [{ ret: 'FAILED' }] } } },
      // java-tron's own failure, as HTTP 200.
      { body: { Error: 'class java.lang.NullPointerException : null' } },
    ]);

    const refused = await caught(chain().frozenAmong(USDT, [ALICE]));
    const reverted = await caught(chain().tokenPaused(USDT));
    const failed = await caught(chain().tokenPaused(USDT));

    for (const error of [refused, reverted, failed]) expect(error).toBeInstanceOf(ChainResponseError);
    expect(refused.message).toContain('No contract or not a valid smart contract');
    expect(reverted.message).toContain('REVERT opcode executed');
    expect(controlReads()).toHaveLength(3);
  });

  it('refuses a word that is not a bool', async () => {
    server.script = inTurn([{ body: { result: { result: true }, constant_result: [(2n).toString(16).padStart(64, '0')] } }]);

    expect(await caught(chain().tokenPaused(USDT))).toBeInstanceOf(ChainResponseError);
  });

  it('follows a deprecation: usdtContracts names the upgraded contract too, read once a minute, and the controls are read there', async () => {
    const upgradedWord = { result: { result: true }, constant_result: [`${'0'.repeat(24)}${evm(BOB).slice(2)}`] };
    server.script = (request) => (selectorOf(request) === 'deprecated()' ? { body: word(1) } : selectorOf(request) === 'upgradedAddress()' ? { body: upgradedWord } : { body: word(1) });
    const deprecatedChain = chain();

    expect(await deprecatedChain.usdtContracts(USDT)).toEqual([USDT, BOB]);
    expect(await deprecatedChain.usdtContracts(USDT)).toEqual([USDT, BOB]);
    expect(await deprecatedChain.tokenPaused(USDT)).toBe(true);
    // deprecated() and upgradedAddress() once for all three, then paused() of the upgraded contract.
    expect(server.requests.map((r) => [selectorOf(r), (r.body as { contract_address: string }).contract_address])).toEqual([
      ['deprecated()', USDT_HEX],
      ['upgradedAddress()', USDT_HEX],
      ['paused()', evm(BOB).replace(/^0x/, '41')],
    ]);
  });

  it('a contract not deprecated is the only one, and a failed read of it is thrown, not taken as "not deprecated"', async () => {
    server.script = [{ body: word(0) }, { status: 503, body: '' }, { status: 503, body: '' }];
    expect(await chain().usdtContracts(USDT)).toEqual([USDT]);
    expect(await caught(chain({ maxAttempts: 2 }).usdtContracts(USDT))).toBeInstanceOf(ChainUnavailableError);
  });
});
