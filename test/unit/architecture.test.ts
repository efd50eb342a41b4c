import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cycles, filesUnder, importGraph } from '../support/imports.ts';

/**
 * The stack (lib/) and the local runtime (local/) stand apart: what both need (the stages'
 * configuration, the dashboard's build and how it is served, the functions) lives outside both,
 * so deploying never loads the local runtime and neither folder has to change with the other.
 * Imports are read as TypeScript reads them (test/support/imports.ts).
 */

/** The stack, the local runtime and what they share; the functions are reached through their imports. */
const START = ['lib', 'local', 'config', 'dashboard'];
/** A START folder's .ts files; only the top level of dashboard/, whose src/ is the browser app's. */
const sourceFiles = (folder: string) => filesUnder(folder, folder !== 'dashboard');
const folderOf = (file: string) => file.split('/')[0]!;

describe('the stack and the local runtime', () => {
  const graph = importGraph(START.flatMap(sourceFiles));

  it('reads every kind of import (a scanner that saw none would pass everything)', () => {
    expect(graph.get('lib/dashboard.ts')).toEqual(expect.arrayContaining(['config/stages.ts', 'dashboard/build.ts', 'functions/routes.ts']));
    // Dynamic, and through an alias.
    expect(graph.get('local/runtime.ts')).toEqual(expect.arrayContaining(['local/api-server.ts', 'functions/companies/company.ts']));
    expect(cycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).toEqual(['a → b → c → a']);
  });

  it('lib/ imports nothing from local/: deploying never loads the local runtime', () => {
    const fromLib = [...graph].filter(([file]) => folderOf(file) === 'lib');
    expect(fromLib.length).toBeGreaterThan(10);
    const intoLocal = fromLib.flatMap(([file, imports]) => imports.filter((target) => folderOf(target) === 'local').map((target) => `${file} → ${target}`));
    expect(intoLocal).toEqual([]);
  });

  it('no file of lib/ or local/ is on an import cycle', () => {
    const ours = (file: string) => START.includes(folderOf(file));
    const among = new Map([...graph].filter(([file]) => ours(file)).map(([file, imports]) => [file, imports.filter(ours)]));
    expect(cycles(among)).toEqual([]);
  });

  it('the folders depend one way: none imports, through others, one that imports it', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, imports] of graph) {
      const edges = folders.get(folderOf(file)) ?? new Set<string>();
      for (const target of imports) if (folderOf(target) !== folderOf(file)) edges.add(folderOf(target));
      folders.set(folderOf(file), edges);
    }
    expect(cycles(folders)).toEqual([]);
  });
});

/**
 * functions/: the business in context folders (deposits/, withdrawals/, people/ …) that know nothing
 * of Lambda, HTTP or AWS; the handler layer (handlers/) wires the adapters (adapters/) into them.
 * So a context never imports a handler, an adapter or the HTTP pipeline (a network's folder aside), the shared kernel imports
 * no context, and no file is on an import cycle, in functions/ or in the dashboard's app.
 */
describe('functions/ and the dashboard app', () => {
  const LAYERS = ['handlers', 'adapters', 'http', 'settings', 'openapi'];
  const layerOf = (file: string) => file.split('/')[1]!;
  const functions = importGraph(filesUnder('functions'));
  const inFunctions = (file: string) => file.startsWith('functions/');

  it('no file of functions/ is on an import cycle', () => {
    const among = new Map([...functions].filter(([file]) => inFunctions(file)).map(([file, imports]) => [file, imports.filter(inFunctions)]));
    expect(among.size).toBeGreaterThan(150);
    expect(cycles(among)).toEqual([]);
  });

  it('a context imports no handler, adapter, HTTP pipeline or settings: its rules know nothing of Lambda or AWS', () => {
    // A network's own folder (networks/tron/) is the exception: it holds that network's adapters
    // too (its node's API, its sandbox chain over the table), so adding a network is one folder.
    const network = /^functions\/networks\/[^/]+\//;
    const contexts = [...functions].filter(([file]) => inFunctions(file) && file.split('/').length > 2 && !LAYERS.includes(layerOf(file)) && !network.test(file));
    expect(new Set(contexts.map(([file]) => layerOf(file))).size).toBeGreaterThanOrEqual(10);
    // The network port's factories are built from the stage's settings slice, so networks/ may name it.
    const allowed = (file: string, target: string) => layerOf(file) === 'networks' && target === 'functions/settings/functions.ts';
    const outward = contexts.flatMap(([file, imports]) => imports.filter((target) => inFunctions(target) && LAYERS.includes(layerOf(target)) && !allowed(file, target)).map((target) => `${file} → ${target}`));
    expect(outward).toEqual([]);
  });

  it('the process environment is read in two modules only: settings come from each function\'s checked slice', () => {
    // The settings module, and the X-Ray mode, which must write the SDK's switch before it loads.
    const readers = [...functions].map(([file]) => file).filter((file) => inFunctions(file) && /\bprocess\.env\b/.test(readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')));
    expect(readers.sort()).toEqual(['functions/adapters/xray-mode.ts', 'functions/settings/environment.ts']);
  });

  it('the shared kernel imports no context', () => {
    const kernel = [...functions].filter(([file]) => file.startsWith('functions/shared/'));
    expect(kernel.length).toBeGreaterThan(3);
    expect(kernel.length).toBeLessThanOrEqual(12);
    expect(kernel.flatMap(([file, imports]) => imports.filter((target) => !target.startsWith('functions/shared/')).map((target) => `${file} → ${target}`))).toEqual([]);
  });

  it('no file of dashboard/src is on an import cycle', () => {
    const app = importGraph(filesUnder('dashboard/src'));
    const among = new Map([...app].filter(([file]) => file.startsWith('dashboard/src/')).map(([file, imports]) => [file, imports.filter((target) => target.startsWith('dashboard/src/'))]));
    expect(among.size).toBeGreaterThan(20);
    expect(cycles(among)).toEqual([]);
  });
});
