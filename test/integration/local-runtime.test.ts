import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('npm start on a machine without Java', () => {
  it('says what is missing and how to install it, and exits non-zero', () => {
    // A PATH with node and nothing else, so `java` cannot be found.
    const bin = mkdtempSync(join(tmpdir(), 'no-java-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    const result = spawnSync(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
      env: { PATH: bin, PORT: '0', HOME: process.env.HOME ?? tmpdir() },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('Java was not found');
    expect(result.stderr).toContain('openjdk-17');
  });
});
