import { base58 } from '@scure/base';
import type { NetworkKeys } from '../network.ts';
import { DepositOwnerDirectory } from './deposit-owner-record.ts';

/** Each table's directory of deposit addresses, kept across warm invocations. */
const directories = new WeakMap<object, Map<string, DepositOwnerDirectory>>();

function directoryOf(table: { db: object; tableName: string }): DepositOwnerDirectory {
  const byTable = directories.get(table.db) ?? new Map<string, DepositOwnerDirectory>();
  directories.set(table.db, byTable);
  let directory = byTable.get(table.tableName);
  if (!directory) byTable.set(table.tableName, (directory = new DepositOwnerDirectory(table.db as never, table.tableName)));
  return directory;
}

/**
 * Solana's keys: a deposit's address is the wallet the sweeper derived at its index ahead of time
 * (./deposit-owners.ts: Ed25519 has no public derivation, so the API reads what the seed's holder
 * wrote); the hot wallet's address is its 32-byte Ed25519 public key in base58.
 */
export const solanaKeys: NetworkKeys = {
  depositTerms: async (deposit, settings, table) => {
    const network = settings.SOLANA;
    if (!network) return null;
    if (!table) throw new Error("Solana's deposit terms read the deposit addresses written ahead: the table is needed");
    return { address: await directoryOf(table).ownerAt(deposit.addressIndex), requiredConfirmations: network.confirmations };
  },
  addressFromPublicKey: (publicKey) => {
    if (publicKey.length !== 32) throw new Error(`A Solana key is 32 bytes of Ed25519, not ${publicKey.length}`);
    return base58.encode(publicKey);
  },
};
