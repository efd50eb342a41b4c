import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { NETWORK_CHOICE, NETWORK_NAMES } from '#functions/networks/names';
import { accountForms, networkNamed } from '#functions/networks/registry';
import { createDepositBody } from '#functions/handlers/deposits/schemas';
import { createWithdrawalBody } from '#functions/handlers/withdrawals/schemas';
import { depositRecord } from '#functions/handlers/deposits/records';
import { withdrawalRecord } from '#functions/handlers/withdrawals/records';
import { filesUnder, resolveImport, ROOT, specifiersOf } from '../support/imports.ts';

/**
 * The network port's boundary (docs/adding-a-network.md): TRON lives in functions/networks/tron/
 * alone, reached only through the registries, and `network` is checked against the registered list.
 */
const TRON_FOLDER = 'functions/networks/tron/';
/** The registries register each network's folder: the one place outside it that may import it. */
const REGISTRY = /^functions\/networks\/[a-z-]*registry\.ts$/;
const source = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** What names TRON's address format: its base58 pattern and tron-address.ts's helpers. */
const TRON_ADDRESS_FORMAT = [/T\[1-9A-HJ-NP-Za-km-z\]\{33\}/, /\b(?:isTronAddress|tronAddressFromHex|tronAddressFromPublicKey|tronAddressToHex)\b/];

const outsideTron = filesUnder('functions').filter((file) => !file.startsWith(TRON_FOLDER));

describe('the network port', () => {
  it('has source files to check on both sides of the boundary', () => {
    expect(outsideTron.length).toBeGreaterThan(100);
    expect(filesUnder(TRON_FOLDER.slice(0, -1)).length).toBeGreaterThan(5);
  });

  it('keeps tronweb and TRON modules out of every file in functions/ but TRON folder and the registries', () => {
    const offenders = outsideTron.flatMap((file) =>
      specifiersOf(file)
        .filter((specifier) => specifier === 'tronweb' || specifier.startsWith('tronweb/') || (!REGISTRY.test(file) && (resolveImport(file, specifier) ?? '').startsWith(TRON_FOLDER)))
        .map((specifier) => `${file} imports ${specifier}`),
    );
    expect(offenders).toEqual([]);
  });

  it("names TRON's address format only inside the TRON folder", () => {
    const offenders = outsideTron.filter((file) => TRON_ADDRESS_FORMAT.some((pattern) => pattern.test(source(file))));
    expect(offenders).toEqual([]);
  });

  it('checks `network` against the registered list in every request body and record', () => {
    // A withdrawal's body takes the networks payouts go out on; every record can name any network.
    const lists = { createDepositBody: NETWORK_NAMES, createWithdrawalBody: NETWORK_NAMES, depositRecord: NETWORK_NAMES, withdrawalRecord: NETWORK_NAMES };
    for (const [name, schema] of Object.entries({ createDepositBody, createWithdrawalBody, depositRecord, withdrawalRecord })) {
      const object = ('pipe' in schema ? schema.pipe[0] : schema) as { entries: v.ObjectEntries };
      const network = object.entries.network as unknown as v.PicklistSchema<readonly string[], string>;
      expect(network.type, name).toBe('picklist');
      expect(network.options, name).toEqual(lists[name as keyof typeof lists]);
    }
    const literal = /(?:literal|literalField)\(\s*['"](?:tron)['"]/;
    const schemaFiles = filesUnder('functions/handlers').filter((file) => /\/(?:schemas|records)\.ts$/.test(file));
    expect(schemaFiles.filter((file) => literal.test(source(file)))).toEqual([]);
  });

  it('refuses a network nobody registered and an address of another form, naming the field', () => {
    const body = { method: 'usdt', network: 'tron', address: 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui', amount: '5.00', reference: 'payout-1' };
    expect(v.safeParse(createWithdrawalBody, body).success).toBe(true);
    const unknownNetwork = v.safeParse(createWithdrawalBody, { ...body, network: 'dogecoin' });
    expect(unknownNetwork.issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([['network', NETWORK_CHOICE]]);
    expect(NETWORK_CHOICE).toBe('must be "tron", "ethereum", "bsc", "polygon", "arbitrum" or "solana"');
    const evmAddress = v.safeParse(createWithdrawalBody, { ...body, address: '0xdAC17F958D2ee523a2206206994597C13D831ec7' });
    expect(evmAddress.issues?.map((issue) => v.getDotPath(issue))).toEqual(['address']);
    // A deposit names any of the registered networks; an address of another form than its network's is refused.
    const deposit = { method: 'usdt', network: 'ethereum', reference: 'order-1' };
    expect(v.safeParse(createDepositBody, deposit).success).toBe(true);
    expect(v.safeParse(createDepositBody, { ...deposit, network: 'dogecoin' }).issues?.map((issue) => [v.getDotPath(issue), issue.message])).toEqual([
      ['network', NETWORK_CHOICE],
    ]);
    const tronSplitOnEthereum = v.safeParse(createDepositBody, { ...deposit, split: { address: body.address, percent: 10 } });
    expect(tronSplitOnEthereum.issues?.map((issue) => v.getDotPath(issue))).toEqual(['split.address']);
    // EIP-55: one letter's case changed breaks the checksum; all lower case carries none and is taken.
    const brokenChecksum = v.safeParse(createDepositBody, { ...deposit, split: { address: '0xdac17F958D2ee523a2206206994597C13D831ec7', percent: 10 } });
    expect(brokenChecksum.issues?.map((issue) => v.getDotPath(issue))).toEqual(['split.address']);
    expect(v.safeParse(createDepositBody, { ...deposit, split: { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', percent: 10 } }).success).toBe(true);
  });
});

describe("the network port's accounts (functions/withdrawals/refused-destinations.ts)", () => {
  it('names one 20-byte account in each form: a TRON address and its 0x twin, an EVM address in any letter case', () => {
    const tron = networkNamed('tron').address;
    const ethereum = networkNamed('ethereum').address;
    const payee = 'TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui';
    const account = tron.account(payee)!;
    expect(account).toMatch(/^[0-9a-f]{40}$/);
    expect(tron.ofAccount(account)).toBe(payee);
    const twin = ethereum.ofAccount(account)!;
    expect(ethereum.is(twin)).toBe(true);
    expect(ethereum.account(twin.toLowerCase())).toBe(account);
    expect(accountForms(payee)).toEqual([payee, twin]);
    expect(accountForms(twin.toUpperCase().replace('0X', '0x'))).toEqual([payee, twin]);
    // A string of no registered network's form names no account.
    expect(tron.account('0x52908400098527886E0F7030069857D2E4169EE7')).toBeNull();
    expect(accountForms('not an address')).toEqual([]);
  });

  it("names Solana's 32-byte account in its own form alone: no 20-byte network has an address for it, nor Solana for theirs", () => {
    const solana = networkNamed('solana').address;
    const wallet = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
    const account = solana.account(wallet)!;
    expect(account).toMatch(/^[0-9a-f]{64}$/);
    expect(solana.ofAccount(account)).toBe(wallet);
    expect(networkNamed('tron').address.ofAccount(account)).toBeNull();
    expect(solana.ofAccount(networkNamed('tron').address.account('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui')!)).toBeNull();
    expect(accountForms(wallet)).toEqual([wallet]);
    // An address off the Ed25519 curve (a program's account) has the form, but the form cannot tell
    // a USDT token account from any other: the chain is read before it is taken (destinations.ts).
    expect(solana.is('1nc1nerator11111111111111111111111111111111')).toBe(true);
    expect(solana.readsChainToAccept?.('1nc1nerator11111111111111111111111111111111')).toBe(true);
    expect(solana.readsChainToAccept?.(wallet)).toBe(false);
    // Base58 has no 0, O, I or l: a typo of one of them names no address.
    expect(solana.canonical('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWW0')).toBeNull();
    expect(solana.canonical('9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGY')).toBeNull();
    expect(solana.isUnspendable('11111111111111111111111111111111')).toBe(true);
  });

  it('knows where no one can spend from: every account below 2^32 (zero, 0x…dEaD, the precompiles, the system contracts), in either form', () => {
    const evm = networkNamed('polygon').address;
    const word = (n: number) => evm.canonical(`0x${n.toString(16).padStart(40, '0')}`)!;
    for (const n of [0, 0xdead, 1, 10, 0x11, 0x64, 0x1000, 0x1010, 0x2005, 0x01000001, 0xffffffff]) expect(evm.isUnspendable(word(n)), word(n)).toBe(true);
    // 2^32 and up: a key someone may hold.
    for (const n of [0x100000000, 2 ** 40]) expect(evm.isUnspendable(word(n)), word(n)).toBe(false);
    expect(evm.isUnspendable('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
    expect(evm.is(word(0))).toBe(true);
    const tron = networkNamed('tron').address;
    expect(tron.isUnspendable(tron.ofAccount('0'.repeat(40))!)).toBe(true);
    expect(tron.ofAccount('0'.repeat(40))).toBe('T9yD14Nj9j7xAB4dbGeiX9h8unkKHxuWwb');
    expect(tron.isUnspendable(tron.ofAccount('0'.repeat(32) + '01000001')!)).toBe(true);
    expect(tron.isUnspendable('TBTfwFxzjRQEtmwtUrKLSspKuuEZfytkui')).toBe(false);
  });
});

describe('each family in its folder (docs/adding-a-network.md): sending, sweeping and reading behind the port', () => {
  const FAMILIES = { tron: { folder: 'functions/networks/tron/', library: 'tronweb' }, evm: { folder: 'functions/networks/evm/', library: 'viem' } } as const;
  const FAMILY_WORDS = /\b(?:tron|Tron|TRON|evm|Evm|EVM|HOT_WALLET_NETWORK)\w*|['"](?:tron|ethereum|bsc|polygon|arbitrum)['"]/;
  /** The contexts that send, settle, sweep, credit and reconcile, and every handler: what a new family must not touch. */
  const CONTEXTS = ['functions/withdrawals', 'functions/deposits', 'functions/ledger', 'functions/handlers'].flatMap((folder) => filesUnder(folder));
  // Comments may say which family does what; the code may not name or branch on one.
  const code = (file: string) => source(file).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

  it('has files to check: every context, the job handlers, and each family with its sending and sweeping', () => {
    expect(CONTEXTS.length).toBeGreaterThan(80);
    for (const job of ['withdrawal-sender', 'deposit-sweeper', 'deposit-poller', 'reconcile']) expect(CONTEXTS).toContain(`functions/handlers/jobs/${job}.ts`);
    for (const { folder } of Object.values(FAMILIES)) {
      for (const module of ['jobs.ts', 'withdrawal-sending.ts', 'sweeps.ts', 'sweep-store.ts']) expect(filesUnder(folder.slice(0, -1)), folder).toContain(`${folder}${module}`);
    }
  });

  it("keeps each family's modules and its chain library out of every file in functions/ but its folder and the registries", () => {
    const offenders = Object.entries(FAMILIES).flatMap(([family, { folder, library }]) =>
      filesUnder('functions')
        .filter((file) => !file.startsWith(folder))
        .flatMap((file) =>
          specifiersOf(file)
            .filter((specifier) => specifier === library || specifier.startsWith(`${library}/`) || (!REGISTRY.test(file) && (resolveImport(file, specifier) ?? '').startsWith(folder)))
            .map((specifier) => `${file} imports ${specifier} (${family})`),
        ),
    );
    expect(offenders).toEqual([]);
  });

  it('leaves the contexts and every handler (the chain jobs too) naming no family: they ask the registries', () => {
    expect(CONTEXTS.filter((file) => FAMILY_WORDS.test(code(file)))).toEqual([]);
  });

  it('sees a family named in a context: the check is not blind', () => {
    expect(FAMILY_WORDS.test("const fee = network === 'tron' ? 1n : 2n;")).toBe(true);
    expect(FAMILY_WORDS.test('const chain = evmChainOf(network, settings);')).toBe(true);
    expect(FAMILY_WORDS.test('// TRON has no nonce')).toBe(true);
    expect(FAMILY_WORDS.test(code('functions/networks/tron/jobs.ts'))).toBe(true);
  });
});

describe("the stack's side of the port (lib/networks/): a family is its file there and a line in the registry", () => {
  const families = readdirSync(join(ROOT, 'functions/networks'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const STACK_REGISTRY = 'lib/networks/registry.ts';
  const familyOf = (file: string) => families.find((family) => file.startsWith(`functions/networks/${family}/`) || file === `lib/networks/${family}.ts`);
  const FAMILY_WORDS = /\b(?:tron|Tron|TRON|evm|Evm|EVM|solana|Solana|SOLANA)\w*|['"](?:tron|ethereum|bsc|polygon|arbitrum|solana)['"]/;
  const code = (file: string) => source(file).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
  /** What makes the chain jobs, their keys and their alarms: what a new family must not touch. */
  const CHAIN_SIDE = ['lib/chain-jobs.ts', 'lib/chain-alarms.ts', 'lib/observability.ts', 'lib/stage-scope.ts', 'lib/binders.ts', 'lib/networks/network-stack.ts'];

  it('has each family of functions/networks/ a part of the stack beside it', () => {
    expect(families.sort()).toEqual(['evm', 'solana', 'tron']);
    for (const family of families) expect(filesUnder('lib/networks')).toContain(`lib/networks/${family}.ts`);
  });

  it("keeps each family's modules, its folder's and its stack part's, out of lib/ but its own part and the registry", () => {
    const offenders = filesUnder('lib')
      .filter((file) => file !== STACK_REGISTRY)
      .flatMap((file) =>
        specifiersOf(file)
          .map((specifier) => [specifier, familyOf(resolveImport(file, specifier) ?? '')] as const)
          .filter(([, family]) => family !== undefined && family !== familyOf(file))
          .map(([specifier, family]) => `${file} imports ${specifier} (${family})`),
      );
    expect(offenders).toEqual([]);
  });

  it('leaves the chain jobs, their keys and their alarms naming no family in their code', () => {
    expect(CHAIN_SIDE.filter((file) => FAMILY_WORDS.test(code(file)))).toEqual([]);
    // Not blind: a family's own part names it.
    expect(FAMILY_WORDS.test(code('lib/networks/solana.ts'))).toBe(true);
  });
});

