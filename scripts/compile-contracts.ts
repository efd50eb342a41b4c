import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseAbi } from 'viem';

/**
 * `npm run contracts:compile`: compiles the Solidity sources, each with the compiler its pragma
 * names among those pinned in package-lock, and writes two generated modules of ABIs and creation
 * bytecode the code deploys and calls:
 * - CONTRACTS_MODULE_FILE, from contracts/*.sol: Cambio's own contracts (the deposit forwarder and
 *   its factory), solc 0.8;
 * - USDT_CONTRACTS_MODULE_FILE, from contracts/usdt/*.sol: the local chains' USDT, our own
 *   contracts with the interface and behaviour of each network's mainnet token
 *   (../shared/networks.md), each compiled with the compiler its mainnet namesake was: the old
 *   ones as npm aliases in devDependencies (TetherToken: 0.4.18; BEP20USDT: 0.5.16), and today's
 *   0.8 for Tether's newer token (BlockedListUsdt, on OpenZeppelin's ERC-20).
 * The output is committed so the runtime never needs a compiler; test/unit/evm-contracts.test.ts
 * recompiles and fails when a committed file is not what the sources compile to.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES_FOLDER = 'contracts';
const USDT_SOURCES_FOLDER = 'contracts/usdt';
export const CONTRACTS_MODULE_FILE = 'functions/networks/evm/contracts.ts';
export const USDT_CONTRACTS_MODULE_FILE = 'functions/networks/evm/usdt-contracts.ts';
const require = createRequire(import.meta.url);

/**
 * Cancun: the newest hardfork all four networks run (Ethereum since Dencun, BSC since Haber,
 * Polygon PoS since Napoli, Arbitrum since ArbOS 20), and older than anvil's default (latest), so
 * the bytecode tested locally is the bytecode deployed. solc's own default is newer and could
 * emit opcodes a network lacks; shanghai would give up MCOPY for nothing.
 */
const EVM_VERSION = 'cancun';
/** High: the factory is deployed once per network and its sweep loop runs on every sweep. */
const OPTIMIZER_RUNS = 1000;

/**
 * The compilers a source may name, as npm packages: the current one (package.json `solc`) and the
 * old ones under an alias. A pragma picks the one its range admits; two or none is an error.
 * The old compilers take neither `evmVersion` (0.4.18 predates the setting) nor cancun: they are
 * left at their own targets (byzantium, petersburg), which every network has long run.
 */
const COMPILER_PACKAGES = ['solc', 'solc-0.4.18', 'solc-0.5.16'] as const;
type CompilerPackage = (typeof COMPILER_PACKAGES)[number];

/** solc-js as every one of these versions has it: `compile` (0.5 and later) or
 * `compileStandardWrapper` (0.4, whose `compile` is the legacy interface) take standard JSON. */
interface SolcJs {
  version(): string;
  compile(input: string, callbacks?: unknown): string;
  compileStandardWrapper?(input: string, readCallback?: (path: string) => ImportResult): string;
}

type ImportResult = { contents: string } | { error: string };

export interface CompiledContract {
  abi: unknown[];
  bytecode: `0x${string}`;
}

export interface CompiledContracts {
  solcVersion: string;
  contracts: Record<string, CompiledContract>;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/**
 * Source unit names are paths relative to the repository (`contracts/X.sol`,
 * `@openzeppelin/contracts/...`), never absolute: they go into the metadata hash at the end of
 * the bytecode, which must be the same on every machine.
 */
function readImport(path: string): ImportResult {
  try {
    const file = path.startsWith('@openzeppelin/') ? require.resolve(path) : join(ROOT, path);
    return { contents: readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `cannot read ${path}: ${(error as Error).message}` };
  }
}

const packageVersion = (name: CompilerPackage): string => (require(`${name}/package.json`) as { version: string }).version;

/** The compiler package a source's `pragma solidity` admits: `^0.x.y` (same 0.x, patch y or later),
 * `^x.y.z` for x ≥ 1 (same major) or an exact `x.y.z`, the forms these sources use. */
export function compilerFor(unit: string, content: string): CompilerPackage {
  const pragma = /^\s*pragma\s+solidity\s+([^;]+);/m.exec(content)?.[1]?.trim();
  if (!pragma) throw new Error(`${unit} has no pragma solidity: it must name its compiler version`);
  const range = /^(\^|=)?\s*(\d+)\.(\d+)\.(\d+)$/.exec(pragma);
  if (!range) throw new Error(`${unit}: pragma solidity ${pragma} is not a form this script reads (^x.y.z or x.y.z)`);
  const [, caret, major, minor, patch] = range.map((part) => part ?? '');
  const admits = (version: string): boolean => {
    const [m, n, p] = version.split('.').map(Number) as [number, number, number];
    if (caret !== '^') return version === `${major}.${minor}.${patch}`;
    if (m !== Number(major)) return false;
    if (m === 0) return n === Number(minor) && p >= Number(patch);
    return n > Number(minor) || (n === Number(minor) && p >= Number(patch));
  };
  const fits = COMPILER_PACKAGES.filter((name) => admits(packageVersion(name)));
  if (fits.length !== 1) {
    throw new Error(`${unit}: pragma solidity ${pragma} admits ${fits.length === 0 ? 'none' : fits.join(' and ')} of the pinned compilers (${COMPILER_PACKAGES.map((name) => `${name} ${packageVersion(name)}`).join(', ')})`);
  }
  return fits[0]!;
}

const loaded = new Map<CompilerPackage, SolcJs>();
function compiler(name: CompilerPackage): SolcJs {
  let solc = loaded.get(name);
  if (!solc) {
    solc = require(name) as SolcJs;
    loaded.set(name, solc);
  }
  return solc;
}

/** The settings each compiler is given: Cambio's own contracts are built for gas (see above); the
 * tokens with the optimizer at solc's usual 200 runs. */
function settingsFor(name: CompilerPackage): Record<string, unknown> {
  return name === 'solc' ? { evmVersion: EVM_VERSION, optimizer: { enabled: true, runs: OPTIMIZER_RUNS } } : { optimizer: { enabled: true, runs: 200 } };
}

/** Compiles `units` (repository-relative paths, all naming the same compiler) in one run. */
function compileUnits(name: CompilerPackage, units: string[]): { solcVersion: string; output: SolcOutput } {
  const solc = compiler(name);
  const sources = Object.fromEntries(units.map((unit) => [unit, { content: readFileSync(join(ROOT, unit), 'utf8') }]));
  const input = JSON.stringify({
    language: 'Solidity',
    sources,
    settings: {
      ...settingsFor(name),
      outputSelection: Object.fromEntries(units.map((unit) => [unit, { '*': ['abi', 'evm.bytecode.object'] }])),
    },
  });
  // Each version's way in: 0.8 takes the callbacks as an object, 0.5 the import callback itself,
  // 0.4 standard JSON only through compileStandardWrapper.
  const raw =
    name === 'solc' ? solc.compile(input, { import: readImport }) : name === 'solc-0.5.16' ? solc.compile(input, readImport) : solc.compileStandardWrapper!(input, readImport);
  const output = JSON.parse(raw) as SolcOutput;
  // A warning fails the build too: in a contract that holds customers' money it is worth a look.
  const problems = (output.errors ?? []).filter((entry) => entry.severity !== 'info');
  if (problems.length > 0) throw new Error(`solc ${solc.version()} reported:\n${problems.map((entry) => entry.formattedMessage).join('\n')}`);
  return { solcVersion: String(solc.version()), output };
}

const solidityFilesIn = (folder: string): string[] =>
  readdirSync(join(ROOT, folder))
    .filter((name) => name.endsWith('.sol'))
    .sort()
    .map((name) => `${folder}/${name}`);

/** Cambio's own contracts (contracts/*.sol): every contract of each source, one compiler. */
export function compileContracts(): CompiledContracts {
  const units = solidityFilesIn(SOURCES_FOLDER);
  const names = new Set(units.map((unit) => compilerFor(unit, readFileSync(join(ROOT, unit), 'utf8'))));
  if (names.size !== 1) throw new Error(`${SOURCES_FOLDER}/*.sol must name one compiler between them, not ${[...names].join(', ')}`);
  const [name] = [...names] as [CompilerPackage];
  const { solcVersion, output } = compileUnits(name, units);
  const contracts: Record<string, CompiledContract> = {};
  for (const unit of units) {
    for (const [contract, compiled] of Object.entries(output.contracts?.[unit] ?? {})) {
      contracts[contract] = { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
    }
  }
  return { solcVersion, contracts };
}

export interface CompiledToken extends CompiledContract {
  solcVersion: string;
}

/** The local chains' USDT contracts (contracts/usdt/*.sol): of each source, the contract it is
 * named after (its helpers stay inside), compiled with the compiler its pragma names. */
export function compileUsdtContracts(): Record<string, CompiledToken> {
  const units = solidityFilesIn(USDT_SOURCES_FOLDER);
  const byCompiler = new Map<CompilerPackage, string[]>();
  for (const unit of units) {
    const name = compilerFor(unit, readFileSync(join(ROOT, unit), 'utf8'));
    byCompiler.set(name, [...(byCompiler.get(name) ?? []), unit]);
  }
  const tokens: Record<string, CompiledToken> = {};
  for (const [name, group] of byCompiler) {
    const { solcVersion, output } = compileUnits(name, group);
    for (const unit of group) {
      const contract = unit.slice(unit.lastIndexOf('/') + 1, -'.sol'.length);
      const compiled = output.contracts?.[unit]?.[contract];
      if (!compiled) throw new Error(`${unit} defines no contract ${contract}: each source is named after its contract`);
      tokens[contract] = { solcVersion, abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
    }
  }
  // In the order of the files, whichever compiler ran first.
  return Object.fromEntries(Object.keys(tokens).sort().map((contract) => [contract, tokens[contract]!]));
}

/** An ABI entry as solc writes it, in the parts its human-readable signature keeps. */
interface AbiEntry {
  type: 'function' | 'event' | 'error' | 'constructor' | 'receive' | 'fallback';
  name?: string;
  inputs?: AbiEntryParameter[];
  outputs?: AbiEntryParameter[];
  stateMutability?: string;
  anonymous?: boolean;
}
interface AbiEntryParameter {
  type: string;
  name?: string;
  indexed?: boolean;
  components?: unknown[];
}

/**
 * An ABI entry as viem's human-readable signature (`function transfer(address to, uint256 value)`),
 * written as abitype's formatAbiItem writes it. Tuples and anonymous events, which these contracts
 * do not have, are refused rather than written in a form this does not check.
 */
function signatureOf(entry: AbiEntry): string {
  if (entry.anonymous) throw new Error(`event ${entry.name} is anonymous: not written as a signature here`);
  const parameters = (list: AbiEntryParameter[] = []) =>
    list
      .map((parameter) => {
        if (parameter.components) throw new Error(`${entry.name}: a tuple parameter is not written as a signature here`);
        return [parameter.type, parameter.indexed && 'indexed', parameter.name].filter(Boolean).join(' ');
      })
      .join(', ');
  const mutability = entry.stateMutability && entry.stateMutability !== 'nonpayable' ? ` ${entry.stateMutability}` : '';
  switch (entry.type) {
    case 'function':
      return `function ${entry.name}(${parameters(entry.inputs)})${mutability}${entry.outputs?.length ? ` returns (${parameters(entry.outputs)})` : ''}`;
    case 'event':
    case 'error':
      return `${entry.type} ${entry.name}(${parameters(entry.inputs)})`;
    case 'constructor':
      return `constructor(${parameters(entry.inputs)})${mutability}`;
    case 'fallback':
      return `fallback() external${mutability}`;
    case 'receive':
      return 'receive() external payable';
  }
}

/** What of an ABI entry calls and logs depend on: solc's `internalType`, and 0.4's `constant` and
 * `payable` beside `stateMutability`, are not. */
const callShape = (entry: AbiEntry) => ({
  type: entry.type,
  name: entry.name ?? '',
  stateMutability: entry.type === 'event' || entry.type === 'error' ? '' : (entry.stateMutability ?? ''),
  inputs: (entry.inputs ?? []).map(({ type, name, indexed }) => ({ type, name: name ?? '', indexed: indexed ?? false })),
  outputs: (entry.outputs ?? []).map(({ type, name }) => ({ type, name: name ?? '' })),
});

/** The contract's ABI as signatures, checked to parse back to the ABI solc wrote. */
function signaturesOf(name: string, abi: unknown[]): string[] {
  const signatures = (abi as AbiEntry[]).map(signatureOf);
  const parsed = parseAbi(signatures) as unknown as AbiEntry[];
  if (JSON.stringify(parsed.map(callShape)) !== JSON.stringify((abi as AbiEntry[]).map(callShape))) {
    throw new Error(`${name}: the signatures written do not parse back to the ABI solc wrote`);
  }
  return signatures;
}

const exportOf = (name: string, { abi, bytecode }: CompiledContract, extra = ''): string =>
  `\nexport const ${name} = {\n${extra}  abi: parseAbi([\n${signaturesOf(name, abi)
    .map((signature) => `    '${signature}',\n`)
    .join('')}  ]),\n  bytecode: '${bytecode}',\n} as const;`;

/** A generated module: where it comes from, then `body`; each ABI as the signatures viem's parseAbi
 * reads, so viem infers function names and argument types from them. */
const generatedModule = (sourcesFolder: string, about: string[], body: string[]): string =>
  `${[
    `// Generated from ${sourcesFolder}/*.sol by \`npm run contracts:compile\` (scripts/compile-contracts.ts). Do not edit:`,
    ...about,
    '',
    "import { parseAbi } from 'viem';",
    ...body,
  ].join('\n')}\n`;

/** The module of Cambio's own contracts, with the compiler and target that built them. */
export function contractsModuleSource({ solcVersion, contracts }: CompiledContracts): string {
  return generatedModule(
    SOURCES_FOLDER,
    ['// change the Solidity source and run it again. Deposit addresses do not depend on this bytecode,', "// only on the factory's address (functions/networks/evm/forwarder-address.ts)."],
    ['', `export const SOLC_VERSION = '${solcVersion}';`, `export const EVM_VERSION = '${EVM_VERSION}';`, ...Object.entries(contracts).map(([name, compiled]) => exportOf(name, compiled))],
  );
}

/** The USDT module: each token with the compiler version that built it. */
export function usdtContractsModuleSource(tokens: Record<string, CompiledToken>): string {
  return generatedModule(
    USDT_SOURCES_FOLDER,
    ["// change the Solidity source and run it again. The local chains' USDT (local/evm-contracts.ts), never", "// deployed on a real network: each reproduces its mainnet namesake's interface and behaviour."],
    Object.entries(tokens).map(([name, token]) => exportOf(name, token, `  solcVersion: '${token.solcVersion}',\n`)),
  );
}

/** Each generated module's path and the text its sources compile to. */
export function generatedModules(): Record<string, string> {
  return {
    [CONTRACTS_MODULE_FILE]: contractsModuleSource(compileContracts()),
    [USDT_CONTRACTS_MODULE_FILE]: usdtContractsModuleSource(compileUsdtContracts()),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const [file, source] of Object.entries(generatedModules())) {
    writeFileSync(join(ROOT, file), source);
    console.log(`wrote ${file}`);
  }
}
