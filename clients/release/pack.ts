/**
 * The release dry-run: `npm run clients:pack [-- language…]` builds each client's release artifacts
 * into dist/clients/, as they would be published, without publishing anything.
 *
 * For each language (all six by default, in LANGUAGES' order) it runs
 * `bash clients/<language>/tools/pack.sh <repo>/dist/clients` from clients/<language>, with
 * CAMBIO_VERSION set to clients/VERSION, and prints the files that script wrote. It fails, naming
 * the language, when a script is missing, exits non-zero or writes nothing; then, when every file
 * written carries the version in its name and every archive holds a LICENSE. Packing all six
 * starts from an empty dist/clients.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { archiveEntries, isArchive } from './archive.ts';
import { CLIENTS_DIR, readVersionFile, statedVersions } from './version.ts';

export const LANGUAGES = ['node', 'python', 'ruby', 'php', 'java', 'dotnet'] as const;
export type Language = (typeof LANGUAGES)[number];

export const ROOT = resolve(CLIENTS_DIR, '..');
export const DIST_DIR = join(ROOT, 'dist', 'clients');

export const packScript = (language: Language) => join(CLIENTS_DIR, language, 'tools', 'pack.sh');
export const consumerCheckScript = (language: Language) => join(CLIENTS_DIR, language, 'tools', 'consumer-check.sh');

export interface Packed {
  language: Language;
  /** Absolute paths of the files its script wrote. */
  artifacts: string[];
}

export class PackError extends Error {}

/** A file's size and time, to tell which files a script wrote (a rewrite of the same name included). */
function snapshot(dir: string): Map<string, string> {
  const seen = new Map<string, string>();
  if (!existsSync(dir)) return seen;
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const stat = statSync(join(dir, name));
    if (stat.isFile()) seen.set(join(dir, name), `${stat.size}:${stat.mtimeMs}`);
  }
  return seen;
}

/** What is wrong with one artifact: no version in its name, or an archive without a LICENSE. */
export function artifactProblems(file: string, version: string): string[] {
  const problems: string[] = [];
  const name = basename(file);
  const escaped = version.replace(/[.+]/g, '\\$&');
  if (!new RegExp(`(?:^|[-_.])${escaped}(?:[-_.]|$)`).test(name)) problems.push(`${name}: its name does not carry the version ${version}`);
  // A .snupkg holds only the .nupkg's debug symbols, downloaded by debuggers beside it; the licence is the .nupkg's.
  if (isArchive(name) && !name.endsWith('.snupkg') && !archiveEntries(file).some((entry) => /^LICEN[CS]E(?:\.(?:md|txt))?$/i.test(basename(entry)))) {
    problems.push(`${name}: no LICENSE inside`);
  }
  return problems;
}

export function packClients(languages: readonly Language[] = LANGUAGES, log: (line: string) => void = console.log): Packed[] {
  const version = readVersionFile();
  const behind = statedVersions().filter((place) => place.stated !== version);
  if (behind.length > 0) {
    throw new PackError(`clients/VERSION is ${version} but ${behind.map((p) => `clients/${p.file} says ${p.stated ?? 'nothing'}`).join(', ')}: run npm run clients:version -- ${version}`);
  }
  const missing = languages.filter((language) => !existsSync(packScript(language)));
  if (missing.length > 0) throw new PackError(`${missing.join(', ')}: no clients/<language>/tools/pack.sh`);

  if (languages.length === LANGUAGES.length) rmSync(DIST_DIR, { recursive: true, force: true });
  mkdirSync(DIST_DIR, { recursive: true });
  const packed: Packed[] = [];
  for (const language of languages) {
    const before = snapshot(DIST_DIR);
    const started = Date.now();
    const run = spawnSync('bash', [packScript(language), DIST_DIR], {
      cwd: join(CLIENTS_DIR, language),
      env: { ...process.env, CAMBIO_VERSION: version },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) {
      const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? `\n${run.error.message}` : ''}`.trim();
      throw new PackError(`${language}: tools/pack.sh failed (exit ${run.status ?? run.signal})\n${output.slice(-6000)}`);
    }
    const artifacts = [...snapshot(DIST_DIR)].filter(([file, stamp]) => before.get(file) !== stamp).map(([file]) => file).sort();
    if (artifacts.length === 0) throw new PackError(`${language}: tools/pack.sh wrote nothing into ${relative(ROOT, DIST_DIR)}`);
    for (const file of artifacts) log(`${language}: ${relative(ROOT, file)}`);
    log(`${language}: packed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    packed.push({ language, artifacts });
  }

  const problems = packed.flatMap(({ language, artifacts }) => artifacts.flatMap((file) => artifactProblems(file, version).map((problem) => `${language}: ${problem}`)));
  if (problems.length > 0) throw new PackError(problems.join('\n'));
  return packed;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const asked = process.argv.slice(2);
  const unknown = asked.filter((language) => !(LANGUAGES as readonly string[]).includes(language));
  if (unknown.length > 0) {
    console.error(`Unknown language ${unknown.join(', ')}. Usage: npm run clients:pack [-- ${LANGUAGES.join(' ')}]`);
    process.exit(2);
  }
  try {
    const languages = asked.length > 0 ? LANGUAGES.filter((language) => asked.includes(language)) : LANGUAGES;
    const packed = packClients(languages);
    console.log(`${packed.reduce((sum, p) => sum + p.artifacts.length, 0)} artifacts of ${readVersionFile()} in ${relative(ROOT, DIST_DIR)}/, every archive with its LICENSE`);
  } catch (error) {
    console.error(error instanceof PackError ? `clients:pack: ${error.message}` : error);
    process.exit(1);
  }
}
