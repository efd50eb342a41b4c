import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const PROJECT = join(import.meta.dirname, '../..');

/**
 * An `ops/` command as an operator runs it (`npm run <name> -- …`), in a process of its own from
 * `cwd` (the project by default), with `env` on top of this one's. Not synchronous, so this process
 * can serve what the command calls (the SES stand-in below).
 */
export function runOpsCommand(script: string, args: string[], env: Record<string, string> = {}, cwd = PROJECT): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    // tsx by its file: `--import tsx` resolves from the working folder, which may be outside the project.
    const loader = pathToFileURL(join(PROJECT, 'node_modules/tsx/dist/loader.mjs')).href;
    const child = spawn(process.execPath, ['--import', loader, join(PROJECT, script), ...args], { cwd, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/**
 * An AWS service's stand-in on a local socket: `answer` serves each request (its body parsed as
 * JSON), and the SDK in the command's process reaches it through `endpointVariable`, with throwaway
 * credentials and no retries. No local engine of these services exists; each stand-in speaks the
 * service's wire format.
 */
async function awsStandIn(endpointVariable: string, answer: (request: IncomingMessage, body: any, response: ServerResponse) => void) {
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    answer(request, JSON.parse(body), response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = {
    [endpointVariable]: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  };
  return { env, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A stand-in for SES's v2 API (the SDK's AWS_ENDPOINT_URL_SESV2 points at it): it records each
 * SendEmail request and answers as SES does, or refuses as SES does for an address it cannot send to.
 */
export async function sesStandIn(answer: 'accept' | 'refuse') {
  const requests: { path: string; body: any }[] = [];
  const standIn = await awsStandIn('AWS_ENDPOINT_URL_SESV2', (request, body, response) => {
    requests.push({ path: request.url ?? '', body });
    if (answer === 'accept') {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ MessageId: 'ses-message-1' }));
    } else {
      response.writeHead(400, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'MessageRejected' }).end(JSON.stringify({ message: 'Email address is not verified.' }));
    }
  });
  return { requests, ...standIn };
}

/**
 * A stand-in for KMS's Encrypt (the SDK's AWS_ENDPOINT_URL_KMS points at it): it records each
 * request (the key it names, the encryption context) and answers as KMS does, with a ciphertext
 * that is the plaintext reversed (JSON 1.1, `X-Amz-Target: TrentService.Encrypt`).
 */
export async function kmsStandIn() {
  const requests: { target: string; body: any }[] = [];
  const standIn = await awsStandIn('AWS_ENDPOINT_URL_KMS', (request, body, response) => {
    requests.push({ target: String(request.headers['x-amz-target'] ?? ''), body });
    const ciphertext = Buffer.from(body.Plaintext ?? '', 'base64').reverse().toString('base64');
    response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify({ CiphertextBlob: ciphertext, KeyId: body.KeyId }));
  });
  return { requests, ...standIn };
}
