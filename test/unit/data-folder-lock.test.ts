import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockDataFolder } from '#local/data-folder';

/**
 * The data folder's lock (local/data-folder.ts), as a start after a crash meets it: a lock whose
 * process is gone, or names this very process (a container's next process can get the dead one's
 * PID), is taken over; one held by a live process, or by a runtime of this process, is refused.
 */
const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function folderLockedBy(pid: number): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'cambio-data-lock-'));
  dataDirs.push(dataDir);
  writeFileSync(join(dataDir, 'runtime.lock'), JSON.stringify({ pid, apiUrl: 'http://127.0.0.1:3000/v1' }));
  return dataDir;
}
const holderOf = (dataDir: string) => JSON.parse(readFileSync(join(dataDir, 'runtime.lock'), 'utf8'));

describe('the data folder lock', () => {
  it('takes over a lock left by a process that is gone, or naming this process when no runtime of it holds the folder', () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid!;
    for (const dataDir of [folderLockedBy(gone), folderLockedBy(process.pid)]) {
      const lock = lockDataFolder(dataDir, 'http://127.0.0.1:4000/v1');
      expect(holderOf(dataDir)).toEqual({ pid: process.pid, apiUrl: 'http://127.0.0.1:4000/v1' });
      lock.release();
      expect(() => holderOf(dataDir)).toThrow(/ENOENT/);
    }
  });

  it("refuses a live process's lock, and a second runtime of this process, naming the holder", () => {
    const held = folderLockedBy(process.ppid);
    expect(() => lockDataFolder(held, 'http://127.0.0.1:4000/v1')).toThrow(`already runs on ${held}/ (process ${process.ppid}, API http://127.0.0.1:3000/v1)`);
    expect(holderOf(held).pid).toBe(process.ppid);

    const ours = mkdtempSync(join(tmpdir(), 'cambio-data-lock-'));
    dataDirs.push(ours);
    const lock = lockDataFolder(ours, 'http://127.0.0.1:4000/v1');
    expect(() => lockDataFolder(ours, 'http://127.0.0.1:4001/v1')).toThrow(`(process ${process.pid}, API http://127.0.0.1:4000/v1)`);
    lock.release();
    lockDataFolder(ours, 'http://127.0.0.1:4001/v1').release();
  });
});
