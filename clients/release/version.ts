/**
 * The six clients share one version, written in clients/VERSION. Each client still states it where
 * its own ecosystem reads it (package.json, pom.xml, the .csproj, a constant for the User-Agent…):
 * PLACES lists every such spot, so `npm run clients:version -- <x.y.z>` rewrites them all and
 * test/unit/client-versions.test.ts fails when any of them differs from clients/VERSION.
 *
 *   npm run clients:version -- 0.5.0
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENTS_DIR = fileURLToPath(new URL('..', import.meta.url));
export const VERSION_FILE = join(CLIENTS_DIR, 'VERSION');

/** Semantic versioning's x.y.z, with an optional pre-release such as 1.0.0-rc.1 (no build metadata:
 * NuGet and Maven would read it differently). */
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

export interface VersionPlace {
  language: 'node' | 'python' | 'ruby' | 'php' | 'java' | 'dotnet';
  /** Relative to clients/. */
  file: string;
  /** Matches where the version is stated: group 1 is what comes before it, group 2 the version. */
  pattern: RegExp;
}

export const PLACES: readonly VersionPlace[] = [
  { language: 'node', file: 'node/package.json', pattern: /^(\{[\s\S]*?\n {2}"version": ")([^"]+)/ },
  { language: 'python', file: 'python/cambio/_version.py', pattern: /^(__version__ = ")([^"]+)/m },
  { language: 'ruby', file: 'ruby/lib/cambio/version.rb', pattern: /^(\s*VERSION = ")([^"]+)/m },
  { language: 'php', file: 'php/composer.json', pattern: /^(\{[\s\S]*?\n {4}"version": ")([^"]+)/ },
  { language: 'php', file: 'php/src/CambioClient.php', pattern: /(public const VERSION = ')([^']+)/ },
  // The project's own <version>: the first one after its <artifactId>, before any dependency's.
  { language: 'java', file: 'java/pom.xml', pattern: /(<modelVersion>[\s\S]*?<artifactId>[^<]*<\/artifactId>\s*<version>)([^<]+)/ },
  { language: 'java', file: 'java/src/main/java/com/cambio/CambioClient.java', pattern: /(public static final String VERSION = ")([^"]+)/ },
  { language: 'dotnet', file: 'dotnet/src/Cambio/Cambio.csproj', pattern: /(<Version>)([^<]+)/ },
];

export function isVersion(text: string): boolean {
  return SEMVER.test(text);
}

/** clients/VERSION (or that file under another clients folder, for tests). */
export function readVersionFile(clientsDir = CLIENTS_DIR): string {
  const version = readFileSync(join(clientsDir, 'VERSION'), 'utf8').trim();
  if (!isVersion(version)) throw new Error(`clients/VERSION holds "${version}", not a version like 1.2.3`);
  return version;
}

/** What each place states now; `null` where its pattern no longer matches (the file was reshaped). */
export function statedVersions(clientsDir = CLIENTS_DIR): Array<VersionPlace & { stated: string | null }> {
  return PLACES.map((place) => ({ ...place, stated: place.pattern.exec(readFileSync(join(clientsDir, place.file), 'utf8'))?.[2] ?? null }));
}

/** Writes `version` to clients/VERSION and every place; refuses before writing anything when a place cannot be found. */
export function setVersion(version: string, clientsDir = CLIENTS_DIR): string[] {
  if (!isVersion(version)) throw new Error(`"${version}" is not a version like 1.2.3`);
  const rewritten = PLACES.map((place) => {
    const path = join(clientsDir, place.file);
    const text = readFileSync(path, 'utf8');
    if (!place.pattern.test(text)) throw new Error(`clients/${place.file}: no version found where ${place.pattern} expects one`);
    return { path, text: text.replace(place.pattern, (_, before: string) => before + version) };
  });
  for (const { path, text } of rewritten) writeFileSync(path, text);
  writeFileSync(join(clientsDir, 'VERSION'), `${version}\n`);
  return ['VERSION', ...PLACES.map((place) => place.file)];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [version, ...rest] = process.argv.slice(2);
  if (!version || rest.length > 0) {
    console.error('Usage: npm run clients:version -- <x.y.z>   (the one version of all six clients)');
    process.exit(2);
  }
  try {
    for (const file of setVersion(version)) console.log(`clients/${file}: ${version}`);
    console.log('Now add its entry to clients/CHANGELOG.md.');
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
