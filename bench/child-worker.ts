import { fork, type ChildProcess } from 'node:child_process';

/** A child's answer to one job: what it produced, or what stopped it. */
export type ChildReply<Result> = { id: number; result: Result; error?: undefined } | { id: number; error: string; result?: undefined };

/**
 * A load generator's module run in a child process and reused for every job, so load generation
 * never shares an event loop with the servers under test, which live in the parent. Each job is
 * sent with an id over IPC; the child answers with a ChildReply (serveJobs below).
 */
export class ChildWorker<Job extends object, Result> {
  private readonly child: ChildProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (result: Result) => void; reject: (error: Error) => void }>();

  constructor(module: URL, name: string) {
    this.child = fork(module, [], {
      execArgv: ['--import', 'tsx'],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (reply: ChildReply<Result>) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.error !== undefined) waiter.reject(new Error(`${name}: ${reply.error}`));
      else waiter.resolve(reply.result);
    });
    this.child.on('exit', (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`${name} exited with code ${code}`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(job: Job): Promise<Result> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ ...job, id });
    });
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.kill('SIGTERM');
    await exited;
  }
}

/** The child's side: runs each job it is sent and answers it, result or error, under the job's id. */
export function serveJobs<Job extends { id: number }, Result>(run: (job: Job) => Promise<Result>): void {
  process.on('message', (job: Job) => {
    run(job).then(
      (result) => process.send?.({ id: job.id, result } satisfies ChildReply<Result>),
      (error: unknown) => process.send?.({ id: job.id, error: String(error) } satisfies ChildReply<Result>),
    );
  });
}
