import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { tronAddressFromHex, tronAddressFromPublicKey } from './tron-address.ts';

/** A transaction the sandbox chain refuses at broadcast, with TRON's own error code. */
export class BroadcastRefused extends Error {}

/** TRX moves on the sandbox chain as transfers of this pseudo-contract, so one table holds both. */
export const SANDBOX_TRX = 'TRX';

const TRC20_TRANSFER_SELECTOR = 'a9059cbb';

/** What a signed transaction moves, once the sandbox chain has accepted its form and signature. */
export interface DecodedTransfer {
  txId: string;
  isTrx: boolean;
  transfer: { contract: string; from: string; to: string; amount: bigint };
}

/**
 * Checks a signed TRX or TRC-20 transfer as TRON's broadcast API does, before anything is read or
 * written: the id must be the hash of the raw data, the contract a TRX transfer or a TRC-20
 * transfer(address,uint256), the signature must recover to the owner, and it must not have
 * expired at `nowMs`. Refusals carry TRON's error codes.
 */
export function decodeSignedTransfer(signed: Record<string, unknown>, nowMs: number): DecodedTransfer {
  const tx = signed as {
    txID?: string;
    raw_data_hex?: string;
    signature?: string[];
    raw_data?: { expiration?: number; contract?: { type?: string; parameter?: { value?: { owner_address?: string; contract_address?: string; data?: string } } }[] };
  };
  const txId = tx.txID ?? '';
  if (!/^[0-9a-f]{64}$/.test(txId) || !tx.raw_data_hex || Buffer.from(sha256(Buffer.from(tx.raw_data_hex, 'hex'))).toString('hex') !== txId) {
    throw new BroadcastRefused('TXID_MISMATCH: txID is not the SHA-256 of raw_data_hex');
  }
  const contract = tx.raw_data?.contract?.[0];
  const call = contract?.parameter?.value as { owner_address?: string; contract_address?: string; data?: string; to_address?: string; amount?: number } | undefined;
  const isTrx = Boolean(contract?.type === 'TransferContract' && call?.owner_address && call.to_address && Number.isInteger(call.amount) && call.amount! > 0);
  const isTrc20 = call?.owner_address && call.contract_address && call.data?.startsWith(TRC20_TRANSFER_SELECTOR) && call.data.length === 8 + 128;
  if (!call || (!isTrx && !isTrc20)) {
    throw new BroadcastRefused('CONTRACT_VALIDATE_ERROR: neither a TRX transfer nor a TRC-20 transfer(address,uint256)');
  }
  const owner = tronAddressFromHex(call.owner_address!);
  const signature = Buffer.from(tx.signature?.[0] ?? '', 'hex');
  if (signature.length !== 65 || recoverSigner(signature, Buffer.from(txId, 'hex')) !== owner) {
    throw new BroadcastRefused('SIGERROR: the signature does not recover to the owner address');
  }
  if ((tx.raw_data?.expiration ?? 0) <= nowMs) throw new BroadcastRefused('TRANSACTION_EXPIRATION_ERROR');
  return {
    txId,
    isTrx,
    transfer: {
      contract: isTrx ? SANDBOX_TRX : tronAddressFromHex(call.contract_address!),
      from: owner,
      to: isTrx ? tronAddressFromHex(call.to_address!) : tronAddressFromHex(`41${call.data!.slice(8 + 24, 8 + 64)}`),
      amount: isTrx ? BigInt(call.amount!) : BigInt(`0x${call.data!.slice(8 + 64)}`),
    },
  };
}

/**
 * TRON signatures are r‖s‖v; java-tron adds 27 to a v below 27, so v is the recovery id (0 or 1,
 * as BitGo signs) or 27 plus it (as tronweb signs). noble wants recovery‖r‖s.
 */
function recoverSigner(signature: Buffer, txId: Buffer): string | null {
  const v = signature[64]!;
  const recovery = v >= 27 ? v - 27 : v;
  if (recovery !== 0 && recovery !== 1) return null;
  try {
    const recovered = new Uint8Array(65);
    recovered[0] = recovery;
    recovered.set(signature.subarray(0, 64), 1);
    return tronAddressFromPublicKey(secp256k1.recoverPublicKey(recovered, txId, { prehash: false }));
  } catch {
    return null;
  }
}
