import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
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
 * A stand-in for SES's v2 API on a local socket (the SDK's AWS_ENDPOINT_URL_SESV2 points at it):
 * it records each SendEmail request and answers as SES does, or refuses as SES does for an
 * address it cannot send to. No local engine of SES exists; this one speaks its wire format.
 */
export async function sesStandIn(answer: 'accept' | 'refuse') {
  const requests: { path: string; body: any }[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    requests.push({ path: request.url ?? '', body: JSON.parse(body) });
    if (answer === 'accept') {
      response.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ MessageId: 'ses-message-1' }));
    } else {
      response.writeHead(400, { 'Content-Type': 'application/json', 'x-amzn-ErrorType': 'MessageRejected' }).end(JSON.stringify({ message: 'Email address is not verified.' }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = {
    AWS_ENDPOINT_URL_SESV2: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  };
  return { requests, env, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * A stand-in for KMS's Encrypt on a local socket (the SDK's AWS_ENDPOINT_URL_KMS points at it): it
 * records each request (the key it names, the encryption context) and answers as KMS does, with a
 * ciphertext that is the plaintext reversed. No local engine of KMS exists; this one speaks its
 * wire format (JSON 1.1, `X-Amz-Target: TrentService.Encrypt`).
 */
export async function kmsStandIn() {
  const requests: { target: string; body: any }[] = [];
  const server = createServer(async (request: IncomingMessage, response) => {
    let body = '';
    for await (const chunk of request) body += chunk;
    const parsed = JSON.parse(body);
    requests.push({ target: String(request.headers['x-amz-target'] ?? ''), body: parsed });
    const ciphertext = Buffer.from(parsed.Plaintext ?? '', 'base64').reverse().toString('base64');
    response.writeHead(200, { 'Content-Type': 'application/x-amz-json-1.1' }).end(JSON.stringify({ CiphertextBlob: ciphertext, KeyId: parsed.KeyId }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const env = {
    AWS_ENDPOINT_URL_KMS: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIDLOCAL',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_MAX_ATTEMPTS: '1',
  };
  return { requests, env, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
