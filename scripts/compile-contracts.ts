import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

/**
 * `npm run contracts:compile`: compiles contracts/*.sol with the solc-js pinned in package-lock
 * and writes CONTRACTS_MODULE_FILE, the ABIs and creation bytecode the code deploys and calls.
 * The output is committed so the runtime never needs a compiler; test/unit/evm-contracts.test.ts
 * recompiles and fails when the committed file is not what the sources compile to.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOURCES_FOLDER = 'contracts';
export const CONTRACTS_MODULE_FILE = 'functions/networks/evm/contracts.ts';
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
function readImport(path: string): { contents: string } | { error: string } {
  try {
    const file = path.startsWith('@openzeppelin/') ? require.resolve(path) : join(ROOT, path);
    return { contents: readFileSync(file, 'utf8') };
  } catch (error) {
    return { error: `cannot read ${path}: ${(error as Error).message}` };
  }
}

export function compileContracts(): CompiledContracts {
  const sourceFiles = readdirSync(join(ROOT, SOURCES_FOLDER))
    .filter((name) => name.endsWith('.sol'))
    .sort();
  const sources = Object.fromEntries(
    sourceFiles.map((name) => [`${SOURCES_FOLDER}/${name}`, { content: readFileSync(join(ROOT, SOURCES_FOLDER, name), 'utf8') }]),
  );
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      evmVersion: EVM_VERSION,
      optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
      outputSelection: Object.fromEntries(Object.keys(sources).map((unit) => [unit, { '*': ['abi', 'evm.bytecode.object'] }])),
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: readImport })) as SolcOutput;
  // A warning fails the build too: in a contract that holds customers' money it is worth a look.
  const problems = (output.errors ?? []).filter((entry) => entry.severity !== 'info');
  if (problems.length > 0) throw new Error(`solc reported:\n${problems.map((entry) => entry.formattedMessage).join('\n')}`);

  const contracts: Record<string, CompiledContract> = {};
  for (const unit of Object.keys(sources)) {
    for (const [name, compiled] of Object.entries(output.contracts?.[unit] ?? {})) {
      contracts[name] = { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` };
    }
  }
  return { solcVersion: String(solc.version()), contracts };
}

/** The TypeScript module: each ABI `as const`, so viem infers function names and argument types. */
export function contractsModuleSource({ solcVersion, contracts }: CompiledContracts): string {
  const header = [
    `// Generated from ${SOURCES_FOLDER}/*.sol by \`npm run contracts:compile\` (scripts/compile-contracts.ts). Do not edit:`,
    '// change the Solidity source and run it again. Deposit addresses do not depend on this bytecode,',
    "// only on the factory's address (functions/networks/evm/forwarder-address.ts).",
    '',
    `export const SOLC_VERSION = '${solcVersion}';`,
    `export const EVM_VERSION = '${EVM_VERSION}';`,
  ];
  const entries = Object.entries(contracts).map(
    ([name, { abi, bytecode }]) => `\nexport const ${name} = {\n  abi: ${JSON.stringify(abi, null, 2).replaceAll('\n', '\n  ')} as const,\n  bytecode: '${bytecode}',\n} as const;`,
  );
  return `${[...header, ...entries].join('\n')}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(join(ROOT, CONTRACTS_MODULE_FILE), contractsModuleSource(compileContracts()));
  console.log(`wrote ${CONTRACTS_MODULE_FILE}`);
}
