import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * openapi.json passes Redocly's recommended rules (redocly.yaml) with no error and no warning, as
 * integrators' tooling would lint it. Redocly CLI runs offline: its telemetry and update check are
 * off, its configuration is the local file, and a preload refuses any socket or fetch it tries.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REDOCLY = `${ROOT}node_modules/@redocly/cli/bin/cli.js`;
const NO_NETWORK = `${ROOT}test/support/no-network.cjs`;

interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer?: string }[] }[];
}

describe('openapi.json under Redocly lint', () => {
  it('passes the recommended rules with no error and no warning, offline', async () => {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', 'openapi.json', '--config', 'redocly.yaml', '--format', 'json'],
      {
        cwd: ROOT,
        env: { ...process.env, NODE_OPTIONS: `--require ${NO_NETWORK}`, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', CI: 'true' },
        maxBuffer: 16 * 1024 * 1024,
      },
    ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }));

    expect(stderr).not.toContain('NETWORK ATTEMPT');
    const report = JSON.parse(stdout) as LintReport;
    const problems = report.problems.map((p) => `${p.severity} ${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`);
    expect(problems).toEqual([]);
    expect(report.totals).toEqual({ errors: 0, warnings: 0, ignored: 0 });
  }, 120_000);
});
