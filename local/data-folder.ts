import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The data folder (`npm start`'s .data/) is one runtime's: two on it would run two DynamoDB Locals
 * on its files, fork its chains (each loads the saved state, then saves its own over it) and the
 * second would forget scan cursors the first is reading with. So a runtime holds `runtime.lock`
 * in it from before it starts any engine until it has stopped them all: its PID and its API's URL.
 */
const LOCK_FILE = 'runtime.lock';

export interface DataFolderHolder {
  pid: number;
  apiUrl: string;
}

export class DataFolderInUse extends Error {
  constructor(dataDir: string, holder: DataFolderHolder) {
    const lock = join(dataDir, LOCK_FILE);
    super(
      `Cambio's local runtime already runs on ${dataDir}/ (process ${holder.pid}, API ${holder.apiUrl}): two runtimes must not share one data folder. ` +
        `Use that one, or stop it (Ctrl-C where it runs, or kill ${holder.pid}) and start again. ` +
        `If process ${holder.pid} is not Cambio's runtime (a crashed runtime's PID taken by another program), remove ${lock} and start again.`,
    );
  }
}

/** The lock files this process holds: a lock naming this process and not among them was left by a
 * runtime killed before (in a container, a new process can get the dead one's PID). */
const held = new Set<string>();

/** The live runtime holding `dataDir`, or null when none does (no lock, or a stale one). */
export function dataFolderHolder(dataDir: string): DataFolderHolder | null {
  const file = resolve(dataDir, LOCK_FILE);
  let holder: DataFolderHolder;
  try {
    holder = JSON.parse(readFileSync(file, 'utf8')) as DataFolderHolder;
  } catch {
    // None, or one nobody could have written whole (written beside and linked: see lockDataFolder).
    return null;
  }
  if (!Number.isSafeInteger(holder?.pid) || holder.pid <= 0) return null;
  if (holder.pid === process.pid) return held.has(file) ? holder : null;
  return isAlive(holder.pid) ? holder : null;
}

export interface DataFolderLock {
  /** Removes the lock if it is still this process's. */
  release(): void;
}

/**
 * Takes `dataDir` for this process, the runtime that will serve at `apiUrl`; DataFolderInUse when a
 * live runtime holds it. A stale lock (its process is gone) is taken over.
 */
export function lockDataFolder(dataDir: string, apiUrl: string): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const file = resolve(dataDir, LOCK_FILE);
  const mine = `${file}.${process.pid}.tmp`;
  writeFileSync(mine, JSON.stringify({ pid: process.pid, apiUrl } satisfies DataFolderHolder));
  try {
    // A hard link fails when the lock exists, so of two starts at once only one takes it, and a
    // reader never sees it half-written. Three turns: a stale lock removed, then taken by us or another.
    for (let turn = 1; ; turn++) {
      try {
        linkSync(mine, file);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || turn === 3) throw error;
      }
      const holder = dataFolderHolder(dataDir);
      if (holder) throw new DataFolderInUse(dataDir, holder);
      rmSync(file, { force: true });
    }
  } finally {
    rmSync(mine, { force: true });
  }
  held.add(file);
  return {
    release: () => {
      if (!held.delete(file)) return;
      try {
        if ((JSON.parse(readFileSync(file, 'utf8')) as DataFolderHolder).pid !== process.pid) return;
      } catch {
        return;
      }
      rmSync(file, { force: true });
    },
  };
}

/** Whether process `pid` runs (another user's counts: it cannot be signalled, yet runs). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Written beside and renamed over: a reader (or the next start, after a kill -9) sees the old
 * file or the new one, never part of one. */
export function writeAtomically(file: string, text: string, options: { mode?: number } = {}): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.tmp`;
  writeFileSync(temporary, text, options);
  renameSync(temporary, file);
}
