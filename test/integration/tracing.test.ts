import { execFile } from 'node:child_process';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { freshTable } from '../support/dynamo.ts';
import { jsonLines } from '../support/log-lines.ts';

/**
 * The Powertools tracer as the jobs load it (#adapters/observability), run in a child process
 * (test/support/trace-probe.ts) with a UDP socket standing in for the X-Ray daemon: off and silent
 * outside Lambda, which is how the local runtime and every other test run the jobs; inside Lambda
 * (its environment variables), a subsegment per job run with each DynamoDB call under it.
 */
const ROOT = '1-6740d1a2-5b3f0e4c9d8a7b6c5d4e3f2a';
const TRACE_HEADER = `Root=${ROOT};Parent=53995c3f42cd8ad8;Sampled=1`;
const LAMBDA_ENV = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
  LAMBDA_TASK_ROOT: process.cwd(),
  AWS_LAMBDA_FUNCTION_NAME: 'Cambio-test-JobsProbe',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  _X_AMZN_TRACE_ID: TRACE_HEADER,
};

let daemon: Socket;
let datagrams: string[];

beforeEach(async () => {
  datagrams = [];
  daemon = createSocket('udp4');
  daemon.on('message', (message) => datagrams.push(message.toString('utf8')));
  await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', resolve));
});

afterEach(() => new Promise<void>((resolve) => daemon.close(() => resolve())));

async function runProbe(environment: Record<string, string>) {
  const { endpoint, tableName } = await freshTable();
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'INFO', AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${(daemon.address() as AddressInfo).port}`, ...environment };
  delete env.AWS_XRAY_MANUAL_MODE;
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join('test', 'support', 'trace-probe.ts'), endpoint, tableName], {
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  // UDP gives no delivery signal: let the last datagrams arrive.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const lines = jsonLines(stdout);
  return { tableName, stderr, probe: lines.find((line) => line.probe)!.probe, logged: lines.filter((line) => !line.probe) };
}

/** Each datagram is the daemon protocol's header line, then one document: in Lambda, every
 * subsegment is sent on its own as it closes (Lambda sends the function's segment itself). */
function subsegments(): Record<string, any>[] {
  return datagrams.map((datagram) => JSON.parse(datagram.split('\n')[1]!) as Record<string, any>);
}

describe('tracing', () => {
  it('is off outside Lambda: no segment sent, no X-Ray SDK complaint, the SDK in manual mode (no async hook)', async () => {
    const { stderr, probe, logged } = await runProbe({});

    expect(probe).toEqual({ tracingEnabled: false, manualMode: 'true' });
    expect(datagrams).toEqual([]);
    // The failing run's own ERROR line and nothing from the X-Ray SDK.
    expect(stderr.split('\n').filter((line) => line !== '')).toEqual([expect.stringContaining('"message":"failing probe failed"')]);
    expect(logged.find((line) => line.message === 'trace probe')).not.toHaveProperty('xray_trace_id');
  });

  it('is off in Lambda when POWERTOOLS_TRACE_ENABLED=false', async () => {
    const { probe } = await runProbe({ ...LAMBDA_ENV, POWERTOOLS_TRACE_ENABLED: 'false' });

    expect(probe).toEqual({ tracingEnabled: false, manualMode: 'true' });
    expect(datagrams).toEqual([]);
  });

  it("in Lambda records a job run as a subsegment named after the job, its DynamoDB calls under it, in the invocation's trace", async () => {
    const { tableName, probe, logged } = await runProbe(LAMBDA_ENV);

    expect(probe).toEqual({ tracingEnabled: true, manualMode: null });
    const documents = subsegments();
    const run = documents.find((document) => document.name === '## trace probe');
    expect(run).toMatchObject({ trace_id: ROOT, parent_id: '53995c3f42cd8ad8', annotations: { ColdStart: true, Service: 'cambio' } });
    expect(run).not.toHaveProperty('fault');
    expect(documents.filter((document) => document.name === 'DynamoDB')).toEqual([
      expect.objectContaining({ trace_id: ROOT, parent_id: run!.id, namespace: 'aws', aws: expect.objectContaining({ operation: 'GetItem', table_name: tableName }) }),
    ]);
    expect(documents.find((document) => document.name === '## failing probe')).toMatchObject({
      fault: true,
      annotations: { ColdStart: false },
      cause: { exceptions: [expect.objectContaining({ message: 'probe failure' })] },
    });
    // Every Powertools line names the trace, so a log line leads to it.
    expect(logged.find((line) => line.message === 'trace probe')).toMatchObject({ correlation_id: 'probe-run', xray_trace_id: ROOT });
  });
});
