import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { archiveEntries } from '../../clients/release/archive.ts';
import { artifactProblems } from '../../clients/release/pack.ts';

/** What `npm run clients:pack` refuses in an artifact, on archives made here with tar and Python's zipfile. */
const scratch = mkdtempSync(join(tmpdir(), 'cambio-release-archives-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(name: string, files: string[]): string {
  const dir = join(scratch, name);
  for (const file of files) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), `${file}\n`);
  }
  return dir;
}
const tgz = (name: string, files: string[]) => {
  const out = join(scratch, name);
  execFileSync('tar', ['czf', out, '-C', tree(`${name}.d`, files), '.']);
  return out;
};
const zip = (name: string, files: string[]) => {
  const dir = tree(`${name}.d`, files);
  const out = join(scratch, name);
  execFileSync('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:\n  [z.write(f"{sys.argv[2]}/{n}", n) for n in sys.argv[3:]]', out, dir, ...files]);
  return out;
};

describe('a release artifact', () => {
  it('lists a tarball, a zip and a gem (a tar whose data.tar.gz holds the files)', () => {
    expect(archiveEntries(tgz('a-1.0.0.tgz', ['package/LICENSE', 'package/index.js'])).sort()).toEqual(['./package/LICENSE', './package/index.js']);
    expect(archiveEntries(zip('a-1.0.0.whl', ['a/__init__.py', 'a-1.0.0.dist-info/LICENSE']))).toEqual(['a/__init__.py', 'a-1.0.0.dist-info/LICENSE']);
    tgz('data.tar.gz', ['lib/a.rb', 'LICENSE']);
    const gem = join(scratch, 'a-1.0.0.gem');
    execFileSync('tar', ['cf', gem, '-C', scratch, 'data.tar.gz']);
    expect(archiveEntries(gem).sort()).toEqual(['./LICENSE', './lib/a.rb']);
  });

  it('passes with the version in its name and a LICENSE inside, at any depth', () => {
    expect(artifactProblems(tgz('cambio-usdt-1.2.3.tgz', ['package/LICENSE', 'package/index.js']), '1.2.3')).toEqual([]);
    expect(artifactProblems(zip('Cambio.1.2.3.nupkg', ['lib/net10.0/Cambio.dll', 'LICENSE.txt']), '1.2.3')).toEqual([]);
    expect(artifactProblems(zip('cambio-java-1.2.3-sources.jar', ['META-INF/LICENSE', 'com/cambio/A.java']), '1.2.3')).toEqual([]);
  });

  it('is refused without a LICENSE inside, or without the version in its name', () => {
    expect(artifactProblems(tgz('cambio-usdt-1.2.3.tar.gz', ['cambio-usdt-1.2.3/README.md']), '1.2.3')).toEqual(['cambio-usdt-1.2.3.tar.gz: no LICENSE inside']);
    expect(artifactProblems(zip('cambio-usdt-client.zip', ['LICENSE', 'composer.json']), '1.2.3')).toEqual([
      'cambio-usdt-client.zip: its name does not carry the version 1.2.3',
    ]);
    // 11.2.3 is not 1.2.3.
    expect(artifactProblems(zip('cambio-usdt-11.2.3.zip', ['LICENSE']), '1.2.3')).toEqual(['cambio-usdt-11.2.3.zip: its name does not carry the version 1.2.3']);
  });
});
