import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/dynamodb-local.ts';

let dynamo: DynamoDbLocal | undefined;

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
}

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}
