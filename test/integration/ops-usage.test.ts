import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runOpsCommand } from '../support/ops-commands.ts';

/**
 * The operator commands' bad usage, as an operator mistypes it: each refuses with exit 2 and a
 * usage line, never a Node stack trace, and writes nothing (run from a folder of its own, where a
 * command that went on to the local data would leave .data/).
 */
const folder = mkdtempSync(join(tmpdir(), 'cambio-ops-usage-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const COMMANDS = [
  'ops/company-create.ts',
  'ops/company-invite.ts',
  'ops/events-redeliver.ts',
  'ops/float-record.ts',
  'ops/webhooks-seal-secrets.ts',
  'ops/sandbox-pay.ts',
  'ops/stage-check.ts',
  'local/ledger-csv.ts',
];

describe('a mistyped flag', () => {
  it.each(COMMANDS)('%s refuses it with exit 2 and a usage line, no stack trace, nothing written', async (script) => {
    const run = await runOpsCommand(script, ['--no-such-flag', 'x'], {}, folder);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain("Unknown option '--no-such-flag'");
    expect(run.stderr).toMatch(/^Usage: .*npm run /m);
    expect(run.stderr).not.toContain('ERR_PARSE_ARGS');
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe('a flag or argument the command would ignore', () => {
  it.each([
    ['sandbox:pay --table without --stage sandbox (it would pay on the local data)', 'ops/sandbox-pay.ts', ['--table', 'Cambio-sandbox-Table', '--address', 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg', '--amount', '1'], '--table goes with --stage sandbox'],
    ['sandbox:pay --stage local --table', 'ops/sandbox-pay.ts', ['--stage', 'local', '--table', 'Cambio-sandbox-Table', '--address', 'TA3rH2A7iHnm6pKH8gr9cK1EZnShnmZdFg', '--amount', '1'], '--table goes with --stage sandbox'],
    ['deposits:rescan --table without --stage (it would rescan the local data, not the table named)', 'ops/deposits-rescan.ts', ['--network', 'tron', '--from-block', '1', '--table', 'Cambio-production-Table'], '--table goes with --stage sandbox|production'],
    ['deposits:rescan --stage local --table', 'ops/deposits-rescan.ts', ['--network', 'tron', '--status', '--stage', 'local', '--table', 'Cambio-production-Table'], '--table goes with --stage sandbox|production'],
    ['ledger:csv with a second folder (it would be ignored)', 'local/ledger-csv.ts', ['./export', './out'], 'One export folder only, got 2'],
  ])('%s: exit 2, a usage line, nothing written', async (_name, script, args, message) => {
    const run = await runOpsCommand(script, args, {}, folder);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(readdirSync(folder)).toEqual([]);
  });
});
