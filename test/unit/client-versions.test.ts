import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { CLIENTS_DIR, PLACES, readVersionFile, setVersion, statedVersions } from '../../clients/release/version.ts';

const LANGUAGES = ['node', 'python', 'ruby', 'php', 'java', 'dotnet'];

/** A copy of clients/VERSION and of every file that states a version, to rewrite without touching the repository. */
function copyOfTheVersionPlaces(): string {
  const copy = mkdtempSync(join(tmpdir(), 'cambio-client-versions-'));
  for (const file of ['VERSION', ...PLACES.map((place) => place.file)]) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(CLIENTS_DIR, file), join(copy, file));
  }
  return copy;
}

let copy: string | undefined;
afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

describe('the six clients share the version in clients/VERSION', () => {
  const version = readVersionFile();

  it.each(PLACES.map((place) => [place.file, place] as const))('%s states it', (_, place) => {
    const [stated] = statedVersions().filter((each) => each.file === place.file);
    expect(stated?.stated, `clients/${place.file} should say ${version}: run npm run clients:version -- ${version}`).toBe(version);
  });

  it('every client has a place that states it, and clients/CHANGELOG.md an entry for it', () => {
    expect(new Set(PLACES.map((place) => place.language))).toEqual(new Set(LANGUAGES));
    expect(readFileSync(join(CLIENTS_DIR, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## \\[${version.replaceAll('.', '\\.')}\\] - \\d{4}-\\d{2}-\\d{2}$`, 'm'));
  });

  it('a client left behind is named', () => {
    copy = copyOfTheVersionPlaces();
    const pom = join(copy, 'java/pom.xml');
    writeFileSync(pom, readFileSync(pom, 'utf8').replace(`<version>${version}</version>`, '<version>0.0.9</version>'));

    const differing = statedVersions(copy).filter((place) => place.stated !== readVersionFile(copy));
    expect(differing.map((place) => [place.file, place.stated])).toEqual([['java/pom.xml', '0.0.9']]);
  });
});

describe('npm run clients:version', () => {
  it('rewrites clients/VERSION and every place, and nothing around them', () => {
    copy = copyOfTheVersionPlaces();
    const before = readFileSync(join(copy, 'node/package.json'), 'utf8');

    setVersion('1.2.3-rc.1', copy);

    expect(readVersionFile(copy)).toBe('1.2.3-rc.1');
    expect(statedVersions(copy).map((place) => place.stated)).toEqual(PLACES.map(() => '1.2.3-rc.1'));
    // Only the version changed: the devDependencies' versions (e.g. typescript's) are untouched.
    expect(readFileSync(join(copy, 'node/package.json'), 'utf8')).toBe(before.replace(/"version": "[^"]+"/, '"version": "1.2.3-rc.1"'));
    const pom = readFileSync(join(copy, 'java/pom.xml'), 'utf8');
    expect(pom).toContain('<junit.version>5.9.2</junit.version>');
  });

  it('refuses what is not a version, and writes nothing', () => {
    copy = copyOfTheVersionPlaces();
    expect(() => setVersion('v1.2', copy)).toThrow(/not a version/);
    expect(() => setVersion('1.2.3+build.4', copy)).toThrow(/not a version/);
    expect(statedVersions(copy).map((place) => place.stated)).toEqual(statedVersions().map((place) => place.stated));
  });

  it('runs from npm with the version as its one argument', async () => {
    const run = promisify(execFile);
    await expect(run('npx', ['tsx', join(CLIENTS_DIR, 'release/version.ts')])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run clients:version -- <x.y.z>') });
    const scripts = (JSON.parse(readFileSync(join(CLIENTS_DIR, '../package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['clients:version']).toBe('tsx clients/release/version.ts');
  });
});
