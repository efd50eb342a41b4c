import { tronAddressFromHex } from '#functions/networks/tron/tron-address';
import type { SeenRequest } from './scripted-server.ts';

/*
 * TronGrid's answers, for tests that run a job against the TronGrid adapter over a loopback
 * server (./scripted-server.ts). Bodies follow java-tron's HTTP API as TronGrid serves it
 * (tronprotocol documentation-en, api/http): wallet/triggerconstantcontract answers
 * `constant_result` as 32-byte hex words; wallet/gettransactioninfobyid and
 * walletsolidity/gettransactioninfobyid answer a TransactionInfo, or `{}` for a transaction that
 * node does not know; getnowblock answers a block with its header.
 */

/** The holder a `balanceOf(address)` constant call asks about, base58. */
export function balanceOfHolder(request: SeenRequest): string {
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
