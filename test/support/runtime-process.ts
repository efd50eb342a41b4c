import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { LocalRuntime, SandboxCredentials } from '#local/runtime';

/** A local runtime started in a child process (./runtime-child.ts), once it serves. */
export interface RuntimeProcess {
  child: ChildProcess;
  apiUrl: string;
  sandbox: SandboxCredentials;
  evmNetworks: LocalRuntime['evmNetworks'];
}

/**
 * Starts the runtime in a child process on `tableName` of the DynamoDB Local at `endpoint` and
 * resolves with what it printed once serving. `environment`: the child's CHILD_* settings
 * (./runtime-child.ts). The caller kills what it started (`children`, for its afterAll).
 */
export async function startRuntimeProcess(endpoint: string, tableName: string, children: ChildProcess[], environment: Record<string, string> = {}): Promise<RuntimeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'runtime-child.ts')], {
    cwd: join(import.meta.dirname, '../..'),
    env: { ...process.env, CHILD_DYNAMODB_ENDPOINT: endpoint, CHILD_TABLE_NAME: tableName, ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('\n')) resolve(stdout.slice(0, stdout.indexOf('\n')));
    });
    child.once('exit', (code) => reject(new Error(`the runtime exited (${code}) before serving: ${stderr}`)));
  });
  return { child, ...(JSON.parse(line) as Omit<RuntimeProcess, 'child'>) };
}

/** kill -9, resolving once the process is gone. */
export async function killed(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

/** Kills (SIGKILL) every child still running: the afterAll of a file that started some. */
export function killAll(children: readonly ChildProcess[]): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
