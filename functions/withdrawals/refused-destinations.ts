import type { NetworkName } from '../networks/names.ts';
import { accountForms, canonicalOn, networkNamed } from '../networks/registry.ts';
import { ApiError, validationFailed } from '../shared/errors.ts';
import type { DestinationChecks } from '../networks/destination-registry.ts';

/**
 * Destinations Cambio refuses (../shared/networks.md, "Addresses Cambio refuses as a destination"),
 * decided here for every way money leaves: POST /v1/withdrawals and the dashboard's New withdrawal
 * (withdrawal-policy.ts underWithdrawalPolicy), a deposit's split (deposits.ts createDeposit) and an
 * entry of the withdrawal allowlist (withdrawal-allowlist.ts). Each is 422 ADDRESS_NOT_ALLOWED with
 * `details: {field, address, reason}`, checked before anything is written and before the sanctions
 * list and the allowlist are read: no list can make such an address a destination.
 *
 * - `unspendable`: an address no one can spend from on the named network (its zero address; on the
 *   EVM networks also 0x…dEaD and the precompiles: network.ts AddressFormat.isUnspendable).
 * - `token_contract`: a contract Cambio uses on the named network: its USDT as the stage's settings
 *   name it, Cambio's deposit forwarder factory and implementation there, and a contract the jobs
 *   learnt the token moved to (Tether's upgraded one once the stage's is deprecated). USDT sent to a
 *   token contract stays there for good.
 * - `cambio_address`: a hot wallet or a deposit address of Cambio's, on any network and in any form.
 *   Paid there, USDT would credit no company and leave the company's balance. An address is compared
 *   by the 20-byte account it names (registry.ts accountForms): TRON and the EVM chains derive
 *   addresses from the same secp256k1 keys alike, so the `0x…` twin of a TRON deposit address is
 *   an account whose key Cambio holds on every EVM chain, and the `T…` twin of an EVM one is the same
 *   bytes; an EVM deposit address is refused on every EVM network, whichever it was made for.
 *
 * The first two cost no read (the stage's settings and the network's rules); the last one read by
 * key of every form of the account (a BatchGetItem: DepositAddress items, and the CambioAddress items
 * the jobs write for the hot wallets and learnt contracts).
 */

export type RefusalReason = 'cambio_address' | 'token_contract' | 'unspendable';

/** What Cambio holds at an address, as its records say: a deposit address (whichever network it was
 * made for), or a network's hot wallet or token contract. */
export type CambioHolding = { role: 'deposit_address' } | LearntHolding;

/** What the jobs learn and record (CambioAddressBook): no deposit record names them. */
export type LearntHolding = { role: 'hot_wallet' | 'token_contract'; network: NetworkName };

export interface CambioAddresses {
  /** What Cambio holds at any of `forms` (one account in each address form, each canonical). */
  holdingsAt(forms: string[]): Promise<CambioHolding[]>;
}

/** Where the jobs that hold a hot wallet's signer and read the chain record what they learn of it. */
export interface CambioAddressBook {
  /** Records `address` (canonical on `holding.network`) as `holding`; recording it again changes nothing. */
  record(address: string, holding: LearntHolding): Promise<void>;
}

/** The contracts the stage's settings name on a network, as written there (functions/networks/settings-registry.ts). */
export type StageContracts = (network: NetworkName) => readonly string[];

export interface Destination {
  network: NetworkName;
  address: string;
  /** The request's field, named in the refusal: `address`, `split.address`. */
  field: string;
}

const REASONS: Record<RefusalReason, string> = {
  cambio_address: "is an address of Cambio's own (a hot wallet or a deposit address, on this network or another): paying it would credit no one",
  token_contract: "is a token contract Cambio uses (the network's USDT, or Cambio's deposit forwarder factory or implementation): USDT sent to it is lost",
  unspendable: 'is an address no one can spend from (a zero, burn or precompile address): USDT sent to it is lost',
};

const refusedDestination = (field: string, address: string, reason: RefusalReason): ApiError =>
  new ApiError('ADDRESS_NOT_ALLOWED', `${field} ${REASONS[reason]}`, { field, address, reason });

/**
 * Refuses `destination` if Cambio refuses it (above); one read at most. An address that is none of
 * the network's is left to the request's validation, which names it. On a network whose form may
 * mislead (Solana: network.ts NetworkDestinations) the chain is read first (`destinations`):
 * refused 400 VALIDATION_FAILED unless it is a wallet or USDT's associated token account of a known
 * owner, and that owner is then checked too (the hot wallet's token account is Cambio's as much as
 * the hot wallet is). One the form cannot settle at all (readsChainToAccept) is refused unread.
 * Answers whom the money reaches: the address, and the wallet that owns it where it is a token
 * account, which the sanctions screening must judge as well (refuseSanctioned).
 */
export async function refuseCambioDestination(deps: { addresses: CambioAddresses; contracts: StageContracts; destinations?: DestinationChecks }, { network, address, field }: Destination): Promise<string[]> {
  const format = networkNamed(network).address;
  const canonical = format.canonical(address.trim());
  if (canonical === null) return [address];
  if (format.isUnspendable(canonical)) throw refusedDestination(field, address, 'unspendable');
  if (deps.contracts(network).some((contract) => format.canonical(contract) === canonical)) throw refusedDestination(field, address, 'token_contract');
  const owners = [canonical];
  const reading = deps.destinations?.(network, canonical) ?? null;
  if (reading) {
    const verdict = await reading;
    if (!verdict.accepted) throw validationFailed([{ path: field, message: verdict.reason }]);
    if (format.isUnspendable(verdict.owner)) throw refusedDestination(field, address, 'unspendable');
    if (verdict.owner !== canonical) owners.push(verdict.owner);
  } else if (format.readsChainToAccept?.(canonical)) {
    throw validationFailed([{ path: field, message: `is not a wallet, and this stage cannot read ${networkNamed(network).title} to tell what it is` }]);
  }
  const holdings = await deps.addresses.holdingsAt(owners.flatMap(accountForms));
  if (holdings.some((holding) => holding.role !== 'token_contract')) throw refusedDestination(field, address, 'cambio_address');
  if (holdings.some((holding) => holding.role === 'token_contract' && holding.network === network)) throw refusedDestination(field, address, 'token_contract');
  return owners;
}

/**
 * What a job that holds a network's hot wallet and reads its chain (the withdrawal sender) tells the
 * API, each run: the hot wallet's address, and the token contracts USDT lives in (the stage's, and
 * the upgraded one once the issuer deprecates it). The book writes each once per container.
 */
export async function recordCambioAddresses(book: CambioAddressBook, network: NetworkName, learnt: { hotWallet: string; tokenContracts: readonly string[] }): Promise<void> {
  const canonical = (address: string) => canonicalOn(network, address) ?? address;
  await book.record(canonical(learnt.hotWallet), { role: 'hot_wallet', network });
  for (const contract of learnt.tokenContracts) await book.record(canonical(contract), { role: 'token_contract', network });
}
