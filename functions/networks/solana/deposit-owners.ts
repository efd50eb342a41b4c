import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { base58 } from '@scure/base';
import { HARDENED_OFFSET, HDKey } from 'micro-key-producer/slip10.js';
import { awsClient } from '../../adapters/aws-clients.ts';
import { heldCondition } from '../../adapters/dynamo/queries.ts';
import { addressIndexCounterItem } from '../../adapters/dynamo/items/deposit-address.ts';
import { depositOwnersItem, OWNERS_PER_BLOCK } from './deposit-owner-record.ts';

/**
 * Deposit addresses on Solana, and why they are made ahead.
 *
 * A deposit address is a wallet (an Ed25519 key, its "owner") whose USDT associated token account
 * receives the payment. On TRON and the EVM chains the API derives a new deposit address from public
 * data alone (an xpub, a CREATE2 salt); Ed25519 has no public derivation, so no function can derive
 * a Solana address without the seed. Two designs keep the seed out of the API: an isolated function
 * that holds it and hands out owners on request, or owners made ahead by a function that holds it.
 * Cambio does the second, in the sweeper: it is the one function that must hold the seed anyway (it
 * signs each sweep with the deposit owners' keys: ./sweeps.ts), so no new function, secret grant or
 * synchronous call is added to deposit creation's path, and deposit creation stays one table read.
 *
 * The sweeper derives the owners (SLIP-0010, m/44'/501'/i'/0', the path Solana's wallets use, so an
 * operator can recover any deposit address's key from the seed with standard tools) and writes them
 * to the table in blocks of OWNERS_PER_BLOCK by address index, `depositOwnersAhead` beyond the index
 * counter, every run (a minute). Deposit creation reads the owner at its deposit's index
 * (./keys.ts); an index whose block is not written yet is refused with DepositOwnersNotReady before
 * anything is written. The API's functions hold no key and no seed.
 */

/** Solana's BIP44 coin type: m/44'/501'/i'/0', as Phantom and the Solana CLI derive account i. */
export const depositOwnerPath = (index: number): string => `m/44'/501'/${index}'/0'`;

/** The SLIP-0010 Ed25519 key at `path` (every step hardened, as SLIP-0010 has it for Ed25519):
 * its 32-byte secret and 32-byte public key. */
export function deriveEd25519(seed: Uint8Array, path: string): { secretKey: Uint8Array; publicKey: Uint8Array; chainCode: Uint8Array } {
  const key = HDKey.fromMasterSeed(seed).derive(path);
  return { secretKey: key.privateKey, publicKey: key.publicKeyRaw, chainCode: key.chainCode };
}

/** The deposit owner's key at `index`: its 32-byte Ed25519 secret and its address. */
export function deriveDepositOwner(seed: Uint8Array, index: number): { secretKey: Uint8Array; address: string } {
  return ownerOf(coinKey(seed), index);
}

/** m/44'/501', from which every owner is two hardened steps: derived once for a block, not per owner. */
const coinKey = (seed: Uint8Array): HDKey => HDKey.fromMasterSeed(seed).derive("m/44'/501'");

function ownerOf(coin: HDKey, index: number): { secretKey: Uint8Array; address: string } {
  const key = coin.deriveChild(HARDENED_OFFSET + index).deriveChild(HARDENED_OFFSET);
  return { secretKey: key.privateKey, address: base58.encode(key.publicKeyRaw) };
}

/** The owners of indexes `from`..`from + count - 1`, in order. */
export function deriveDepositOwners(seed: Uint8Array, from: number, count: number): string[] {
  const coin = coinKey(seed);
  return Array.from({ length: count }, (_, i) => ownerOf(coin, from + i).address);
}

/**
 * Writes every block of deposit addresses from the first not yet written up to `ahead` indexes past
 * `nextIndex` (the index counter); returns how many blocks it wrote. Every block below the counter
 * is covered too, not only those past it: a deposit process takes its indexes from the counter a
 * block at a time (ADDRESS_INDEX_BLOCK), so indexes just below it may still be handed out. A block is
 * written only if absent, so two sweepers never write one twice and what a deposit was given never
 * changes; a marker keeps where the written blocks end, so a run reads one item when nothing is due.
 */
export async function writeDepositOwnersAhead(
  db: DynamoDBDocumentClient,
  tableName: string,
  seed: () => Promise<Uint8Array>,
  nextIndex: number,
  ahead: number,
  now = new Date(),
): Promise<number> {
  const { Item: marker } = await db.send(new GetCommand({ TableName: tableName, Key: depositOwnersItem.writtenKey(), ConsistentRead: true }));
  const first = marker ? depositOwnersItem.writtenBelowOf(marker) : 0;
  const last = depositOwnersItem.blockOf(nextIndex + ahead - 1);
  let written = 0;
  for (let block = first; block <= last; block++) {
    const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: depositOwnersItem.key(String(block)), ProjectionExpression: 'PK', ConsistentRead: true }));
    if (Item) continue;
    const owners = deriveDepositOwners(await seed(), block * OWNERS_PER_BLOCK, OWNERS_PER_BLOCK);
    const put = db.send(new PutCommand({ TableName: tableName, Item: depositOwnersItem.toItem(block, owners, now.toISOString()), ConditionExpression: 'attribute_not_exists(PK)' }));
    // Refused: another sweeper wrote it first, the same owners from the same seed.
    if (await heldCondition(put)) written++;
  }
  if (last + 1 > first) {
    await heldCondition(
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: depositOwnersItem.writtenKey(),
          UpdateExpression: 'SET #type = :type, writtenBelow = :below',
          // Never moved back by a sweeper that read an older marker.
          ConditionExpression: 'attribute_not_exists(writtenBelow) OR writtenBelow < :below',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': depositOwnersItem.writtenType, ':below': last + 1 },
        }),
      ),
    );
  }
  return written;
}

/** The index counter's value: one past the last index handed out to a deposit process (0 before any). */
export async function nextAddressIndex(db: DynamoDBDocumentClient, tableName: string): Promise<number> {
  const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: addressIndexCounterItem.key(), ConsistentRead: true }));
  return Item ? addressIndexCounterItem.nextIndexOf(Item) : 0;
}

/** The deposit seed from its hex: 16 to 64 bytes, as SLIP-0010 takes a seed. */
export function depositSeedOf(hex: string): Uint8Array {
  const trimmed = hex.trim();
  if (!/^([0-9a-fA-F]{2}){16,64}$/.test(trimmed)) throw new Error('The Solana deposit seed must be 16 to 64 bytes of hex');
  return new Uint8Array(Buffer.from(trimmed, 'hex'));
}

/** The seed from Secrets Manager (only the sweeper is granted it), read once and kept; a failed
 * read is asked again next time. */
export function secretsManagerDepositSeed(secretId: string, client = awsClient(new SecretsManagerClient({}))): () => Promise<Uint8Array> {
  let seed: Promise<Uint8Array> | undefined;
  return () => {
    seed ??= client.send(new GetSecretValueCommand({ SecretId: secretId })).then(({ SecretString }) => {
      if (!SecretString?.trim()) throw new Error(`Secret ${secretId} holds no deposit seed`);
      return depositSeedOf(SecretString);
    });
    seed.catch(() => (seed = undefined));
    return seed;
  };
}
