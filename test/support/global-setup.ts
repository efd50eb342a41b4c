import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local.ts';

let dynamo: DynamoDbLocal | undefined;

// Test runs serve thousands of requests: only warnings and errors are printed, and no metrics
// (test/integration/observability.test.ts turns both on for itself). Set before the workers start,
// which inherit the environment.
process.env.LOG_LEVEL ??= 'WARN';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// DynamoDB Local's JIT with the client compiler alone: on a 2-core machine the server compiler's
// threads cost DynamoDB Local half its CPU in a test run (measured: 91 → 46 CPU-s over four
// integration files), more than its faster code gives back in a run of short files. Inherited by
// the DynamoDB Local of every runtime a test starts in a child process.
process.env.DYNAMODB_LOCAL_JAVA_OPTIONS ??= '-XX:TieredStopAtLevel=1';

export async function setup(project: TestProject): Promise<void> {
  dynamo = await startDynamoDbLocal();
  project.provide('dynamoEndpoint', dynamo.endpoint);
}

export async function teardown(): Promise<void> {
  await dynamo?.stop();
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
