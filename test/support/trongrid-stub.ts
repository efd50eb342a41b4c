import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tronAddressFromHex } from '#domain/tron-address';

/**
 * A TronGrid stand-in on loopback for tests that run a job against the TronGrid adapter. Bodies
 * follow java-tron's HTTP API as TronGrid serves it (tronprotocol documentation-en, api/http):
 * wallet/triggerconstantcontract answers `constant_result` as 32-byte hex words;
 * wallet/gettransactioninfobyid and walletsolidity/gettransactioninfobyid answer a TransactionInfo,
 * or `{}` for a transaction that node does not know; getnowblock answers a block with its header.
 */
export interface StubRequest {
  method: string;
  path: string;
  body: Record<string, unknown> | undefined;
}

export interface StubReply {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
  delayMs?: number;
}

export interface TronGridStub {
  baseUrl: string;
  requests: StubRequest[];
  /** The most requests the stub was answering at the same moment. */
  maxInFlight: number;
  handle: (request: StubRequest) => StubReply;
  reset(): void;
  close(): Promise<void>;
}

export async function startTronGridStub(handle: (request: StubRequest) => StubReply = () => ({ status: 404, body: {} })): Promise<TronGridStub> {
  let inFlight = 0;
  const stub: TronGridStub = {
    baseUrl: '',
    requests: [],
    maxInFlight: 0,
    handle,
    reset() {
      stub.requests = [];
      stub.maxInFlight = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    inFlight++;
    stub.maxInFlight = Math.max(stub.maxInFlight, inFlight);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const request: StubRequest = { method: req.method ?? '', path: new URL(req.url ?? '/', 'http://localhost').pathname, body: raw ? JSON.parse(raw) : undefined };
      stub.requests.push(request);
      const reply = stub.handle(request);
      setTimeout(() => {
        inFlight--;
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers }).end(text);
      }, reply.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}

/** The holder a `balanceOf(address)` constant call asks about, base58. */
export function balanceOfHolder(request: StubRequest): string {
  const parameter = String(request.body?.parameter ?? '');
  return tronAddressFromHex(`41${parameter.slice(24)}`);
}

/** wallet/triggerconstantcontract's answer to `balanceOf`: one 32-byte word. */
export function constantResult(amount: bigint): unknown {
  return { result: { result: true }, energy_used: 935, constant_result: [amount.toString(16).padStart(64, '0')] };
}

/** wallet/getnowblock or walletsolidity/getnowblock. */
export function tronBlock(number: number, timestampMs: number): unknown {
  return {
    blockID: `${number.toString(16).padStart(16, '0')}${'52bfa4b2814f816fd2e57af5b98a33d60d8630a03a908e0e'}`,
    block_header: { raw_data: { number, timestamp: timestampMs, version: 34 } },
  };
}

/** gettransactioninfobyid for a mined TRC-20 transfer. */
export function transactionInfo(txHash: string, blockNumber: number, blockTimeStamp: number, result: 'SUCCESS' | 'REVERT'): unknown {
  return {
    id: txHash,
    fee: 5_254_500,
    blockNumber,
    blockTimeStamp,
    contractResult: [result === 'SUCCESS' ? `${'0'.repeat(63)}1` : ''],
    contract_address: '41a614f803b6fd780986a42c78ec9c7f77e6ded13c',
    receipt: { energy_fee: 4_458_500, energy_usage_total: 44_585, net_fee: 796_000, result },
    ...(result === 'SUCCESS' ? {} : { result: 'FAILED' }),
  };
}
