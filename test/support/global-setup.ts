import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local.ts';

let dynamo: DynamoDbLocal | undefined;

// The run's temporary files in a folder of its own, removed when it ends: every stack a test
// synthesizes leaves a cdk.out of some 23 MB in the temporary folder (the App's default outdir,
// its assets staged there), over 2 GB a run, and a developer's disk filled up with them. Set
// before the workers start, which inherit the environment.
const runTemporaryFolder = mkdtempSync(join(tmpdir(), 'cambio-test-run-'));
process.env.TMPDIR = runTemporaryFolder;

// Test runs serve thousands of requests: only warnings and errors are printed, and no metrics
// (test/integration/observability.test.ts turns both on for itself). Set before the workers start,
// which inherit the environment.
process.env.LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';

export async function setup(project: TestProject): Promise<void> {
  dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
  rmSync(runTemporaryFolder, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
