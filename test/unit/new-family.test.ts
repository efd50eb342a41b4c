import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { filesUnder, ROOT } from '../support/imports.ts';

/**
 * Issue #44's measure, kept: a new family of networks is one folder plus a line in each registry
 * (docs/adding-a-network.md). A copy of functions/ gets a family that fills every part of the port
 * (test/fixtures/fake-family/network.ts, in functions/networks/fake/), its name in NETWORK_NAMES and
 * its entry in each registry; then TypeScript checks the copy as `npm test` checks the tree. Had a
 * context, a handler or an adapter still switched over the families, or a list been typed by every
 * network name outside the registries, the copy would not compile, and the edit needed would show.
 */
const work = mkdtempSync(join(tmpdir(), 'cambio-new-family-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** What may change outside the family's folder: the list of networks and the registries. */
const MAY_CHANGE = /^functions\/networks\/(?:names|display|[a-z-]*registry)\.ts$/;

/** The edits adding the fake family: one import and one entry (`before` → `after`) per file. */
const EDITS: { file: string; import?: string; before: string; after: string }[] = [
  { file: 'functions/networks/names.ts', before: "'arbitrum', 'solana'] as const;\n\nexport type NetworkName", after: "'arbitrum', 'solana', 'fake'] as const;\n\nexport type NetworkName" },
  { file: 'functions/networks/display.ts', before: '\n};', after: "\n  fake: { title: 'Fake', transactionUrlPrefix: 'https://fake.invalid/tx/' },\n};" },
  { file: 'functions/networks/registry.ts', import: "import { fake } from './fake/network.ts';", before: 'arbitrum, solana }', after: 'arbitrum, solana, fake }' },
  { file: 'functions/networks/key-registry.ts', import: "import { fakeKeys } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeKeys,\n};' },
  { file: 'functions/networks/chain-registry.ts', import: "import { fakeChains } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeChains,\n};' },
  { file: 'functions/networks/destination-registry.ts', import: "import { fakeDestinations } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeDestinations,\n};' },
  { file: 'functions/networks/hot-wallet-registry.ts', import: "import { fakeHotWallet } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeHotWallet,\n};' },
  { file: 'functions/networks/sandbox-registry.ts', import: "import { fakeSandbox } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeSandbox,\n};' },
  { file: 'functions/networks/job-registry.ts', import: "import { fakeJobs } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeJobs,\n};' },
  { file: 'functions/networks/settings-registry.ts', import: "import { fakeOnStage } from './fake/network.ts';", before: '\n};', after: '\n  fake: fakeOnStage,\n};' },
];

function addFakeFamily(): string[] {
  cpSync(join(ROOT, 'functions'), join(work, 'functions'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(work, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(work, 'node_modules'), 'dir');
  cpSync(join(ROOT, 'test/fixtures/fake-family'), join(work, 'functions/networks/fake'), { recursive: true });
  for (const edit of EDITS) {
    const path = join(work, edit.file);
    const source = readFileSync(path, 'utf8');
    const at = source.lastIndexOf(edit.before);
    if (at < 0) throw new Error(`${edit.file} no longer has ${JSON.stringify(edit.before)}: update the edit`);
    const edited = source.slice(0, at) + edit.after + source.slice(at + edit.before.length);
    writeFileSync(path, edit.import ? `${edit.import}\n${edited}` : edited);
  }
  return EDITS.map((edit) => edit.file);
}

/** TypeScript's errors for the copy's functions/, with the repository's compiler options. */
function compileErrors(): string[] {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config as { compilerOptions: object };
  const parsed = ts.parseJsonConfigFileContent({ compilerOptions: config.compilerOptions, include: ['functions'] }, ts.sys, work);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where = diagnostic.file ? `${diagnostic.file.fileName.slice(work.length + 1)}: ` : '';
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  });
}

describe('a new family of networks', () => {
  it('is its folder and a line in each registry: with nothing else edited, functions/ compiles with it', { timeout: 180_000 }, () => {
    const edited = addFakeFamily();
    expect(edited.filter((file) => !MAY_CHANGE.test(file))).toEqual([]);
    // Every registry has the family (a registry left out would not compile: each is typed by NETWORK_NAMES).
    const registries = filesUnder('functions/networks', false).filter((file) => /registry\.ts$/.test(file) && !file.endsWith('record-registry.ts'));
    expect(registries.filter((file) => !edited.includes(file))).toEqual([]);
    expect(compileErrors()).toEqual([]);
  });
});
