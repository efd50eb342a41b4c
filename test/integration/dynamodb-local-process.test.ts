import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../support/wait.ts';

/** Whether something accepts TCP connections on the port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

describe('DynamoDB Local started by `npm start`', () => {
  // A SIGKILLed runtime runs no cleanup. DynamoDB Local must still go with it: a Java process left
  // behind keeps its port and, with .data/, the database files the next `npm start` opens.
  it('stops when the process that started it is killed with SIGKILL', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/dynamodb-local-child.ts'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const firstLine = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`the child exited (${code}) before DynamoDB Local answered`)));
    });
    const { port } = JSON.parse(firstLine) as { port: number };
    expect(await listening(port)).toBe(true);

    child.kill('SIGKILL');
    const stillListening = await waitFor(() => listening(port), (up) => !up, 20_000);
    expect(stillListening).toBe(false);
  }, 60_000);
});
