import { startDynamoDbLocal } from '#local/dynamodb-local';

/**
 * DynamoDB Local started by a process of its own, for the test that kills that process with
 * SIGKILL (no cleanup runs). Prints one JSON line once DynamoDB Local answers: its port.
 */
const dynamo = await startDynamoDbLocal();
process.stdout.write(`${JSON.stringify({ port: dynamo.port })}\n`);
setInterval(() => {}, 60_000);
