import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sandboxFrozenAddressItem, sandboxTokenControlsItem, type SandboxTokenControls } from '../../adapters/dynamo/items/sandbox-chain.ts';
import { batchGetAll, queryAll, readItem } from '../../adapters/dynamo/queries.ts';
import type { Item } from '../../adapters/dynamo/items/item.ts';
import { TableStore } from '../../adapters/dynamo/table-store.ts';
import { deriveDepositAddress, TEST_MNEMONIC_ACCOUNT_XPUB } from './tron-address.ts';

/**
 * The sandbox's USDT as Tether's `TetherToken` is on TRON (../shared/networks.md, "The token as it
 * is on mainnet"): its issuer freezes addresses (a frozen one cannot send), pauses every transfer,
 * charges a fee (`basisPointsRate` of the amount, at most `maximumFee`, paid to the issuer with a
 * Transfer event of its own) and deprecates the contract for an upgraded one, which then holds the
 * balances and emits every Transfer event, those made through the old contract included (Tether's
 * legacy forwarding). The sandbox chain executes transfers under these rules
 * (functions/networks/tron/sandbox-chain.ts); `npm run sandbox:issuer` and the tests set them
 * (sandbox-issuer.ts). Any other contract (TRX, a look-alike token) has no issuer.
 */

/** The token whose issuer the sandbox chain models: the sandbox's USDT, at mainnet's address, as
 * every stage's USDT_CONTRACT sets it (config/stages.ts). */
export const SANDBOX_USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

/** Tether's `owner` on the sandbox chain, which collects the transfer fee. Derived, as the sandbox
 * payer is (sandbox-payer.ts), from the public test mnemonic's account, at an index outside those
 * Cambio derives deposit addresses at: a valid address nobody else uses. */
export const SANDBOX_ISSUER = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_001);

/** The upgraded contract `deprecate` points the sandbox's USDT at (the same address every time):
 * it exists on the sandbox chain from the deprecation on. */
export const SANDBOX_UPGRADED_USDT = deriveDepositAddress(TEST_MNEMONIC_ACCOUNT_XPUB, 2_000_000_002);

/** Whether a contract is the issuer's token, through its original or its upgraded address. */
export const isSandboxToken = (contract: string): boolean => contract === SANDBOX_USDT || contract === SANDBOX_UPGRADED_USDT;

/** The contract whose balances a transfer through `contract` moves: the token keeps one set of
 * balances, whichever of its two contracts a transfer goes through. */
export const balanceContractOf = (contract: string): string => (contract === SANDBOX_UPGRADED_USDT ? SANDBOX_USDT : contract);

/** What a transfer of the token meets, read when it is executed. */
export interface TokenRules {
  /** Why the transfer reverts (Tether's `whenNotPaused`, `require(!isBlackListed[msg.sender])`), or null. */
  halted: 'paused' | 'sender_frozen' | null;
  /** The contract that emits its Transfer events: the upgraded one once the token is deprecated. */
  emitter: string;
  /** The fee Tether's `transfer` takes from `amount` (the recipient gets the rest). */
  fee(amount: bigint): bigint;
}

/** The token's fee on a transfer of `amount`, as TetherToken computes it: `amount × basisPointsRate
 * / 10000` rounded down, at most `maximumFee`. */
export function transferFee(amount: bigint, controls: Pick<SandboxTokenControls, 'feeBasisPoints' | 'maxFee'>): bigint {
  const fee = (amount * BigInt(controls.feeBasisPoints)) / 10_000n;
  return fee > controls.maxFee ? controls.maxFee : fee;
}

export class SandboxToken extends TableStore {
  async controls(): Promise<SandboxTokenControls> {
    return sandboxTokenControlsItem.fromItem(await readItem(this.db, this.tableName, sandboxTokenControlsItem.key(SANDBOX_USDT)));
  }

  /**
   * The rules a transfer from `from` through `contract` meets now (rulesFrom), from one consistent
   * BatchGetItem of ruleKeys; no read for a contract without an issuer.
   */
  async rulesFor(contract: string, from: string): Promise<TokenRules | 'no_contract' | null> {
    const keys = this.ruleKeys(contract, from);
    return this.rulesFrom(contract, from, keys.length === 0 ? [] : await batchGetAll(this.db, this.tableName, keys, { consistent: true }));
  }

  /** The items that decide a transfer's rules, for a caller to read in the request it makes anyway
   * (the chain's duplicate check at broadcast): the controls and the sender's freeze. */
  ruleKeys(contract: string, from: string): { PK: string; SK: string }[] {
    return isSandboxToken(contract) ? [sandboxTokenControlsItem.key(SANDBOX_USDT), sandboxFrozenAddressItem.key(SANDBOX_USDT, from)] : [];
  }

  /**
   * The rules from the items read for ruleKeys (other items among them are ignored): null for a
   * contract without an issuer, 'no_contract' for the upgraded contract before the token is
   * deprecated (it is not deployed yet).
   */
  rulesFrom(contract: string, from: string, items: Item[]): TokenRules | 'no_contract' | null {
    if (!isSandboxToken(contract)) return null;
    const find = (key: { PK: string; SK: string }) => items.find((item) => item.PK === key.PK && item.SK === key.SK) ?? null;
    const controls = sandboxTokenControlsItem.fromItem(find(sandboxTokenControlsItem.key(SANDBOX_USDT)));
    const senderFrozen = find(sandboxFrozenAddressItem.key(SANDBOX_USDT, from)) !== null;
    if (contract === SANDBOX_UPGRADED_USDT && controls.upgradedContract !== SANDBOX_UPGRADED_USDT) return 'no_contract';
    return {
      halted: controls.paused ? 'paused' : senderFrozen ? 'sender_frozen' : null,
      emitter: controls.upgradedContract ?? SANDBOX_USDT,
      fee: (amount) => transferFee(amount, controls),
    };
  }

  /** Those of `addresses` the issuer has frozen: one Query of the frozen partition. */
  async frozenAmong(addresses: string[]): Promise<Set<string>> {
    if (addresses.length === 0) return new Set();
    const items = await queryAll(this.db, {
      TableName: this.tableName,
      KeyConditionExpression: 'PK = :pk',
      ExpressionAttributeValues: { ':pk': sandboxFrozenAddressItem.partition(SANDBOX_USDT) },
      ConsistentRead: true,
    });
    const frozen = new Set(items.map((item) => sandboxFrozenAddressItem.fromItem(item).address));
    return new Set(addresses.filter((address) => frozen.has(address)));
  }

  /** Tether's `addBlackList` / `removeBlackList`: idempotent, as the contract's are. */
  async setFrozen(address: string, frozen: boolean, at: Date = new Date()): Promise<void> {
    if (frozen) {
      await this.db.send(new PutCommand({ TableName: this.tableName, Item: sandboxFrozenAddressItem.toItem(SANDBOX_USDT, address, at.toISOString()) }));
    } else {
      await this.db.send(new DeleteCommand({ TableName: this.tableName, Key: sandboxFrozenAddressItem.key(SANDBOX_USDT, address) }));
    }
  }

  /** Sets the named controls and leaves the others as they are. */
  async setControls(changes: Partial<SandboxTokenControls>, at: Date = new Date()): Promise<void> {
    const fields: Record<string, unknown> = { ...changes, type: sandboxTokenControlsItem.type, contract: SANDBOX_USDT, updatedAt: at.toISOString() };
    const names = Object.keys(fields);
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: sandboxTokenControlsItem.key(SANDBOX_USDT),
        UpdateExpression: `SET ${names.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#f${i}`, name])),
        ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, fields[name]])),
      }),
    );
  }
}
