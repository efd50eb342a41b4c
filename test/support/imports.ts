import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * The repository's imports as TypeScript reads them (its own scanner: static, type-only,
 * re-exports and dynamic `import('…')` with a literal), resolved through relative paths and
 * package.json's aliases: what the architecture tests check boundaries and cycles with.
 */
export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const ALIASES = Object.entries((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { imports: Record<string, string> }).imports);

/** Repository-relative paths ('/'-separated) of the .ts and .tsx files in a folder, or only its top level. */
export function filesUnder(folder: string, deep = true): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return deep ? walk(path) : [];
      return /\.tsx?$/.test(entry.name) ? [path] : [];
    });
  return walk(folder);
}

/** The repository file a specifier names, or null for a package or a file that is not TypeScript. */
export function resolveImport(from: string, specifier: string): string | null {
  let target: string;
  if (specifier.startsWith('.')) {
    target = resolve(ROOT, dirname(from), specifier);
  } else if (specifier.startsWith('#')) {
    const alias = ALIASES.find(([pattern]) => (pattern.endsWith('*') ? specifier.startsWith(pattern.slice(0, -1)) : specifier === pattern));
    if (!alias) throw new Error(`${from}: no package.json alias for ${specifier}`);
    const [pattern, to] = alias;
    target = resolve(ROOT, pattern.endsWith('*') ? to.replace('*', specifier.slice(pattern.length - 1)) : to);
  } else {
    return null;
  }
  for (const candidate of [target, `${target}.ts`, `${target}.tsx`]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) {
      return /\.tsx?$/.test(candidate) ? relative(ROOT, candidate).split('\\').join('/') : null;
    }
  }
  throw new Error(`${from}: ${specifier} names no file`);
}

/** Every module a file names, as written: static, type-only, re-exports and dynamic `import('…')` with a literal. */
export function specifiersOf(file: string): string[] {
  return ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true).importedFiles.map(({ fileName }) => fileName);
}

/** The repository files a file imports. */
export function importsOf(file: string): string[] {
  return [...new Set(specifiersOf(file).map((specifier) => resolveImport(file, specifier)).filter((target) => target !== null))].sort();
}

/** Every file reachable from the files given, with the repository files each imports. */
export function importGraph(from: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [...from];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (graph.has(file)) continue;
    const imports = importsOf(file);
    graph.set(file, imports);
    pending.push(...imports.filter((target) => !graph.has(target)));
  }
  return graph;
}

/** Each cycle a depth-first walk meets, as its path back to where it began (`a → b → a`). */
export function cycles(graph: Map<string, Iterable<string>>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') found.push([...path.slice(path.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    path.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return found;
}
