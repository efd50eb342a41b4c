import { spawn } from 'node:child_process';

/**
 * A local engine (DynamoDB Local's Java, an anvil node) as a child that dies with the process that
 * started it, however that process ends. A SIGKILLed `npm start` (or test worker) runs no cleanup,
 * and a child left behind would keep its port, and DynamoDB Local the -dbPath files of the next
 * start. So the engine runs under a watchdog shell holding the read end of a pipe whose write end
 * only we hold: when we exit, for any reason, the kernel closes it, `read` returns, and the shell
 * stops the engine (SIGTERM). stop() closes the pipe the same way. The engine's own stdin is
 * /dev/null; the shell's exit status is the engine's.
 */
const STOP_WITH_PARENT = [
  'exec 3<&0',
  '"$@" </dev/null & engine_pid=$!',
  '(read _ <&3; kill "$engine_pid" 2>/dev/null) & watchdog_pid=$!',
  'exec 3<&-',
  'wait "$engine_pid"; status=$?',
  'kill "$watchdog_pid" 2>/dev/null',
  'exit "$status"',
].join('\n');

export interface EngineProcess {
  /** The exit code once it has exited, else null. */
  exitCode(): number | null;
  /** What it wrote to stderr so far, for the error that says why it did not start. */
  stderr(): string;
  /** Stops it and resolves once it has exited (SIGKILL to the shell after `killAfterMs`). */
  stop(): Promise<void>;
}

/**
 * `ownProcessGroup`: the engine out of the terminal's process group, so Ctrl-C reaches only
 * `npm start`, which then stops it in its own time (an anvil node's state is saved before it is
 * stopped: ./evm-chain-state.ts); it still dies with us, by the pipe.
 */
export function startEngineProcess(name: string, command: string, args: string[], killAfterMs = 5000, { ownProcessGroup = false }: { ownProcessGroup?: boolean } = {}): EngineProcess {
  const child = spawn('sh', ['-c', STOP_WITH_PARENT, name, command, ...args], { stdio: ['pipe', 'ignore', 'pipe'], detached: ownProcessGroup });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    exitCode: () => child.exitCode,
    stderr: () => stderr.trim(),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.stdin?.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      await exited;
      clearTimeout(timer);
    },
  };
}
