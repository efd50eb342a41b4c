import { EVM_NETWORK_NAMES, NETWORK_NAMES, type NetworkName } from '../networks/names.ts';
import { networkNamed } from '../networks/registry.ts';
import { operatorAuditEntry, type OperatorAuditEntry } from '../operations/operator-audit.ts';
import { canonicalOn, networksOf, type ScreeningEntry } from './screening.ts';
import { MalformedXml, readSdnAdvanced } from './sdn-advanced.ts';

/**
 * Filling the screening list (README, Screening): OFAC's SDN list imported from its official
 * sdn_advanced.xml (by `npm run screening:import` and, in AWS, daily by the screening refresh job),
 * or from a plain list of addresses (one a line, such as the per-asset extractions of that file);
 * and a stage's own entries, added and removed by an operator, each audited.
 *
 * Importing is idempotent: what is listed already is left as it is, so a second import of the
 * same file writes nothing and leaves the list's version (and every container's cache) alone. The
 * SDN file is OFAC's whole list, so an address it no longer names is delisted; a plain list may be
 * a part, so it only adds. A stage's entries are never touched by an import.
 */

/**
 * Which of OFAC's digital-currency assets Cambio screens, and on which networks. The address on
 * an EVM chain is the same key's on every EVM chain, so what OFAC lists for Ethereum (ETH),
 * Ethereum Classic, BNB Smart Chain (BSC) or Arbitrum (ARB) is listed on every EVM network; a
 * stablecoin's address (USDT, USDC) is a TRON, an EVM or a Solana one by its form; SOL's are Solana's. Each address is kept on
 * those of its networks where it is an address at all; other assets (XBT, XMR, LTC…) are counted
 * and left out.
 */
export const OFAC_ASSET_NETWORKS: Readonly<Record<string, readonly NetworkName[]>> = {
  TRX: ['tron'],
  ETH: EVM_NETWORK_NAMES,
  ETC: EVM_NETWORK_NAMES,
  BSC: EVM_NETWORK_NAMES,
  ARB: EVM_NETWORK_NAMES,
  SOL: ['solana'],
  USDT: NETWORK_NAMES,
  USDC: NETWORK_NAMES,
};

/** Bigger than any list Cambio imports in plain form (OFAC's TRON addresses: a few hundred). */
const MAX_PLAIN_LIST_BYTES = 10 * 1024 * 1024;

/** A file that cannot be imported as asked; nothing is written. */
export class ScreeningImportRefused extends Error {
  override name = 'ScreeningImportRefused';
}

/** An address as a file lists it, on each network it is kept on. */
export interface ListedAddress {
  network: NetworkName;
  address: string;
  /** OFAC's asset codes that list it (none from a plain list). */
  assets: string[];
}

export interface ScreeningFile {
  format: 'sdn_advanced' | 'plain';
  /** The whole of OFAC's list (the SDN file): an address it leaves out is delisted. */
  complete: boolean;
  /** The SDN file's DateOfIssue (YYYY-MM-DD), null for a plain list. */
  issuedOn: string | null;
  /** By `network#address`. */
  addresses: Map<string, ListedAddress>;
  /** What was not an address of the networks it was listed for: reported, never stored. */
  invalid: { value: string; where: string; reason: string }[];
  /** The SDN file's addresses of assets Cambio does not screen, counted by asset. */
  ignored: Record<string, number>;
}

const keyOf = (network: NetworkName, address: string) => `${network}#${address}`;

function add(file: ScreeningFile, networks: NetworkName[], value: string, asset: string | null): void {
  for (const network of networks) {
    const address = canonicalOn(network, value)!;
    const known = file.addresses.get(keyOf(network, address));
    const assets = new Set([...(known?.assets ?? []), ...(asset === null ? [] : [asset])]);
    file.addresses.set(keyOf(network, address), { network, address, assets: [...assets].sort() });
  }
}

/**
 * Reads a file for import, by its content: an XML document is taken for OFAC's sdn_advanced.xml,
 * anything else for a plain list (one address a line; blank lines and `#` comments skipped).
 * `network` names a plain list's network: its addresses must be that network's. Without it each
 * address's form says its networks (`T…` TRON, `0x…` every EVM network).
 */
export async function readScreeningFile(chunks: AsyncIterable<Uint8Array | string>, options: { network?: NetworkName } = {}): Promise<ScreeningFile> {
  const text = decoded(chunks);
  const first = await text.next();
  const head = first.done ? '' : first.value;
  const rest = restOf(head, text);
  if (/^\uFEFF?\s*</.test(head)) {
    if (options.network) throw new ScreeningImportRefused('--network is for a plain list: the SDN file names each address\'s asset, and so its networks');
    return fromSdnAdvanced(rest);
  }
  return fromPlainList(rest, options.network);
}

async function fromSdnAdvanced(chunks: AsyncIterable<string>): Promise<ScreeningFile> {
  let sdn;
  try {
    sdn = await readSdnAdvanced(chunks);
  } catch (error) {
    if (!(error instanceof MalformedXml)) throw error;
    throw new ScreeningImportRefused(`Not a well-formed XML document (${error.message}): a download cut short, or not OFAC's sdn_advanced.xml`);
  }
  if (sdn.digitalCurrencyTypes === 0) {
    throw new ScreeningImportRefused('The XML names no "Digital Currency Address - …" feature type: it is not OFAC\'s sdn_advanced.xml, or OFAC has renamed them');
  }
  const file: ScreeningFile = { format: 'sdn_advanced', complete: true, issuedOn: sdn.issuedOn, addresses: new Map(), invalid: [], ignored: {} };
  for (const { asset, value, party } of sdn.addresses) {
    const screenedOn = OFAC_ASSET_NETWORKS[asset];
    if (!screenedOn) {
      file.ignored[asset] = (file.ignored[asset] ?? 0) + 1;
      continue;
    }
    const networks = screenedOn.filter((network) => canonicalOn(network, value) !== null);
    if (networks.length === 0) file.invalid.push({ value, where: `party ${party ?? '?'} (${asset})`, reason: `not an address of ${screenedOn.join(', ')}` });
    else add(file, networks, value, asset);
  }
  return file;
}

async function fromPlainList(chunks: AsyncIterable<string>, network: NetworkName | undefined): Promise<ScreeningFile> {
  let content = '';
  for await (const chunk of chunks) {
    content += chunk;
    if (content.length > MAX_PLAIN_LIST_BYTES) throw new ScreeningImportRefused(`A plain list over ${MAX_PLAIN_LIST_BYTES / 1024 / 1024} MB is not a list of addresses`);
  }
  const file: ScreeningFile = { format: 'plain', complete: false, issuedOn: null, addresses: new Map(), invalid: [], ignored: {} };
  content.split(/\r?\n/).forEach((raw, index) => {
    const value = raw.replace(/#.*/, '').trim();
    if (value === '') return;
    const where = `line ${index + 1}`;
    if (network && canonicalOn(network, value) === null) {
      file.invalid.push({ value, where, reason: `not a ${networkNamed(network).title} address` });
      return;
    }
    const networks = networksOf(value);
    if (networks.length === 0) file.invalid.push({ value, where, reason: `not an address of ${NETWORK_NAMES.join(', ')}` });
    else add(file, networks, value, null);
  });
  return file;
}

/** Plain lists read one by one, imported as one (one read of the list, one version change). */
export function combinedPlainLists(files: ScreeningFile[]): ScreeningFile {
  if (files.some((file) => file.format !== 'plain')) throw new ScreeningImportRefused('Only plain lists are combined: the SDN file is imported alone');
  return {
    format: 'plain',
    complete: false,
    issuedOn: null,
    addresses: new Map(files.flatMap((file) => [...file.addresses])),
    invalid: files.flatMap((file) => file.invalid),
    ignored: {},
  };
}

/** The file's text, decoded as UTF-8 across chunk boundaries. */
async function* decoded(chunks: AsyncIterable<Uint8Array | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of chunks) {
    const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text !== '') yield text;
  }
  const tail = decoder.decode();
  if (tail !== '') yield tail;
}

async function* restOf(head: string, text: AsyncGenerator<string>): AsyncGenerator<string> {
  if (head !== '') yield head;
  yield* text;
}

/** The list's own record (one item): its version, which moves with every change of an entry so
 * each container's cache knows to read again, and what was last imported. */
export interface ScreeningListState {
  version: number;
  changedAt: string | null;
  /** When OFAC's whole list (the SDN file) was last imported, changed or not: the list's age that
   * the ScreeningListAge alarm watches. */
  ofacSyncedAt: string | null;
  /** Where that came from (a file name or the job's URL), and the file's DateOfIssue. */
  ofacFrom: string | null;
  ofacIssuedOn: string | null;
  /** OFAC's entries now, by network. */
  ofacEntries: Partial<Record<NetworkName, number>>;
  /** The stage's own entries now (an address counts once per network). */
  stageEntries: number;
  /** Set while an import writes its entries: one that finds it set finishes what the last left. */
  importStartedAt: string | null;
  lastImport: ImportSummary | null;
  /** The refresh job's last attempt, when it failed and no import of OFAC's whole list has
   * succeeded since: its hourly runs download again while it is set (./screening-refresh.ts). */
  lastRefreshFailure: RefreshFailure | null;
}

export interface RefreshFailure {
  at: string;
  /** The URL it downloaded from. */
  from: string;
  /** The error's name and message. */
  failure: string;
}

export interface ImportSummary {
  at: string;
  from: string;
  format: ScreeningFile['format'];
  issuedOn: string | null;
  /** Entries (network × address) newly on OFAC's list, whose assets changed, delisted, left as they were. */
  added: number;
  updated: number;
  removed: number;
  unchanged: number;
  invalid: number;
  ignored: Record<string, number>;
}

/** A write to OFAC's part of one entry: listed (with its assets; `isNew` when the list held no
 * entry for it at all as read), or delisted. */
export type OfacChange =
  | { kind: 'list'; network: NetworkName; address: string; ofac: NonNullable<ScreeningEntry['ofac']>; isNew: boolean }
  | { kind: 'delist'; network: NetworkName; address: string };

/** The stored list, as the import and the operator's commands change it. */
export interface ScreeningStore {
  state(): Promise<ScreeningListState>;
  /** The network's entries (listed now, by either source). */
  entriesOf(network: NetworkName): Promise<ScreeningEntry[]>;
  entry(network: NetworkName, address: string): Promise<ScreeningEntry | null>;
  /** Marks an import under way and moves the version on, before its entries are written. */
  beginImport(at: string): Promise<void>;
  /** Writes OFAC's part of each entry, several at once; a stage's part is left as it is. */
  writeOfac(changes: OfacChange[], at: string): Promise<void>;
  /** Ends an import: the version moves on again (if `changed`), the counts and summary are written,
   * the mark cleared (and, once OFAC's whole list is in, `synced`, the last refresh failure), and
   * `audit` appended, in one transaction. */
  finishImport(outcome: { summary: ImportSummary; synced: boolean; ofacEntries: Partial<Record<NetworkName, number>>; changed: boolean }, audit: OperatorAuditEntry | null): Promise<void>;
  /** The stage's entry on each of `entries` with its audit entry and a new version, in one
   * transaction; 'listed', and nothing written, if the stage listed it already. */
  addStage(entries: { network: NetworkName; address: string }[], stage: NonNullable<ScreeningEntry['stage']>, audit: OperatorAuditEntry): Promise<'added' | 'listed'>;
  /** Takes the stage's entry off each of `entries`, likewise; 'not-listed', and nothing written, if
   * the stage has none there. OFAC's part of an entry stays. */
  removeStage(entries: { network: NetworkName; address: string }[], audit: OperatorAuditEntry): Promise<'removed' | 'not-listed'>;
  /** Notes a refresh that failed (the list's version and entries are left as they are). */
  recordRefreshFailure(failure: RefreshFailure): Promise<void>;
}

/** An SDN file that would delist more than this share of OFAC's entries is refused (a file that
 * parses but is not the whole list) unless the operator says it is right. */
const MAX_DELISTED_SHARE = 0.5;

/** Imports a file read by readScreeningFile; what changed, or nothing when the list already held it. */
export async function importScreeningFile(
  store: ScreeningStore,
  file: ScreeningFile,
  options: { from: string; actor: string; now?: Date; allowShrink?: boolean; allowOlder?: boolean },
): Promise<ImportSummary> {
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const state = await store.state();
  // An older copy of OFAC's whole list would delist what OFAC listed since, and the list would then
  // read as freshly synced (its age alarm quiet, the refresh's retries stopped).
  if (file.format === 'sdn_advanced' && file.issuedOn !== null && state.ofacIssuedOn !== null && file.issuedOn < state.ofacIssuedOn && !options.allowOlder) {
    throw new ScreeningImportRefused(
      `The file was issued on ${file.issuedOn}, before the list now held (issued on ${state.ofacIssuedOn}): an older copy of OFAC's list would delist what OFAC listed since. If it is the list to hold, import it again with --allow-older`,
    );
  }
  const existing = new Map<string, ScreeningEntry>();
  for (const network of NETWORK_NAMES) for (const entry of await store.entriesOf(network)) existing.set(keyOf(entry.network, entry.address), entry);

  const changes: OfacChange[] = [];
  let added = 0;
  let updated = 0;
  let unchanged = 0;
  for (const [key, listed] of file.addresses) {
    const entry = existing.get(key);
    const known = entry?.ofac;
    if (!known) {
      changes.push({ kind: 'list', network: listed.network, address: listed.address, ofac: { assets: listed.assets, since: at }, isNew: entry === undefined });
      added++;
    } else if (file.format === 'sdn_advanced' && known.assets.join(',') !== listed.assets.join(',')) {
      changes.push({ kind: 'list', network: listed.network, address: listed.address, ofac: { assets: listed.assets, since: known.since }, isNew: false });
      updated++;
    } else unchanged++;
  }
  const ofacBefore = [...existing.values()].filter((entry) => entry.ofac !== null);
  const delisted = file.complete ? ofacBefore.filter((entry) => !file.addresses.has(keyOf(entry.network, entry.address))) : [];
  if (delisted.length > 0 && delisted.length > ofacBefore.length * MAX_DELISTED_SHARE && !options.allowShrink) {
    throw new ScreeningImportRefused(
      `The file would delist ${delisted.length} of OFAC's ${ofacBefore.length} entries: it may not be the whole SDN list. If OFAC did delist them, import it again with --allow-shrink`,
    );
  }
  for (const entry of delisted) changes.push({ kind: 'delist', network: entry.network, address: entry.address });

  const ofacEntries: Partial<Record<NetworkName, number>> = {};
  const counted = new Set([...ofacBefore.map((entry) => keyOf(entry.network, entry.address)), ...changes.filter((change) => change.kind === 'list').map((change) => keyOf(change.network, change.address))]);
  for (const entry of delisted) counted.delete(keyOf(entry.network, entry.address));
  for (const key of counted) {
    const network = key.slice(0, key.indexOf('#')) as NetworkName;
    ofacEntries[network] = (ofacEntries[network] ?? 0) + 1;
  }

  const summary: ImportSummary = {
    at,
    from: options.from,
    format: file.format,
    issuedOn: file.issuedOn,
    added,
    updated,
    removed: delisted.length,
    unchanged,
    invalid: file.invalid.length,
    ignored: file.ignored,
  };
  const changed = changes.length > 0;
  // A part of the list that it already holds (the shipped snapshot at each start): nothing to write.
  if (!changed && !file.complete && state.importStartedAt === null) return summary;
  if (changed) await store.beginImport(at);
  await store.writeOfac(changes, at);
  const audit = changed
    ? operatorAuditEntry('screening.imported', options.actor, options.from, { format: file.format, added: String(added), updated: String(updated), removed: String(delisted.length), issuedOn: file.issuedOn ?? '' }, now)
    : null;
  // An import interrupted after its first write left the mark: finishing now moves the version on,
  // so no container keeps what it read meanwhile.
  await store.finishImport({ summary, synced: file.complete, ofacEntries, changed: changed || state.importStartedAt !== null }, audit);
  return summary;
}

/** The address on every network it is an address of, each in that network's form. */
function entriesFor(network: NetworkName, address: string): { network: NetworkName; address: string }[] {
  if (canonicalOn(network, address) === null) throw new ScreeningImportRefused(`${address} is not a ${networkNamed(network).title} address`);
  return networksOf(address).map((name) => ({ network: name, address: canonicalOn(name, address)! }));
}

/** `npm run screening:add`: the stage lists `address` itself, on every network it is an address of. */
export async function addStageEntry(
  store: ScreeningStore,
  input: { network: NetworkName; address: string; reason: string; actor: string },
  now = new Date(),
): Promise<{ outcome: 'added' | 'listed'; networks: NetworkName[] }> {
  const entries = entriesFor(input.network, input.address);
  const canonical = canonicalOn(input.network, input.address)!;
  // Only where the stage has no entry yet: after a network is added (docs/adding-a-network.md), the
  // same command lists the address on it too; written all or nothing over every network, the ones
  // listed already refused the whole, and the new network stayed unscreened.
  const missing = await entriesWhere(store, entries, (entry) => !entry?.stage);
  if (missing.length === 0) return { outcome: 'listed', networks: entries.map((entry) => entry.network) };
  const audit = operatorAuditEntry('screening.added', input.actor, canonical, { network: input.network, networks: missing.map((entry) => entry.network).join(','), reason: input.reason }, now);
  const outcome = await store.addStage(missing, { reason: input.reason, addedBy: input.actor, addedAt: now.toISOString() }, audit);
  return { outcome, networks: (outcome === 'added' ? missing : entries).map((entry) => entry.network) };
}

/** Those of `entries` whose stored entry (null: none) `keep` keeps, read one network at a time. */
async function entriesWhere(store: ScreeningStore, entries: { network: NetworkName; address: string }[], keep: (entry: ScreeningEntry | null) => boolean) {
  const stored = await Promise.all(entries.map((entry) => store.entry(entry.network, entry.address)));
  return entries.filter((_, index) => keep(stored[index] ?? null));
}

/**
 * `npm run screening:remove`: the stage's own entry goes. OFAC's cannot be removed by a stage:
 * 'ofac' says the address stays listed by OFAC, whether or not the stage had listed it too.
 */
export async function removeStageEntry(
  store: ScreeningStore,
  input: { network: NetworkName; address: string; reason: string; actor: string },
  now = new Date(),
): Promise<{ outcome: 'removed' | 'not-listed'; stillOnOfac: boolean }> {
  const entries = entriesFor(input.network, input.address);
  const canonical = canonicalOn(input.network, input.address)!;
  const current = await store.entry(input.network, canonical);
  // From the networks that have the stage's entry: one without (a network added since) is no reason
  // to keep it on the others.
  const listed = current?.stage ? await entriesWhere(store, entries, (entry) => !!entry?.stage) : [];
  const audit = operatorAuditEntry('screening.removed', input.actor, canonical, { network: input.network, networks: listed.map((entry) => entry.network).join(','), reason: input.reason }, now);
  const outcome = listed.length > 0 ? await store.removeStage(listed, audit) : 'not-listed';
  return { outcome, stillOnOfac: current?.ofac != null };
}
