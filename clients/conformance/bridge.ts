/**
 * Runs one official client's own test suite (pytest, PHPUnit, minitest, JUnit 5, xunit) from
 * vitest, against a live conformance runtime, and reports each of its test cases as a vitest test,
 * so `npm test` counts and names every case of every language. The runner writes a JUnit XML
 * report (or .NET's TRX); a case it skipped is a failure here, since the runtime is up.
 *
 * Used at the top level of test/clients/<language>.test.ts:
 *   await clientSuite({ language: 'python', command: [...] });
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, inject, it } from 'vitest';
import { startConformanceRuntime } from './runtime.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ClientSuite {
  /** Its folder, clients/<language>, is where the runner runs. */
  language: 'python' | 'ruby' | 'php' | 'java' | 'dotnet';
  /** The runner's command line; `{report}` is replaced by the report's path (a file, or a folder for `junit-dir`). */
  command: string[];
  /** `junit` (the default): one JUnit XML file; `junit-dir`: every *.xml in a folder (Surefire); `trx`: .NET's TRX files in a folder. */
  report?: 'junit' | 'junit-dir' | 'trx';
  /** What the runner needs on the machine: each a file (one of several paths) and how to install it.
   * Whatever is missing fails one test that names all of it, instead of running the suite. */
  needs?: ToolchainNeed[];
  /** Extra environment for the runner. */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface ToolchainNeed {
  /** The file that shows it is installed; with several, any one of them. */
  path: string | string[];
  /** What to install when it is not, e.g. `junit5 (Debian: junit5)`. */
  install: string;
}

export interface CaseResult {
  name: string;
  failure: string | null;
  skipped: boolean;
}

export async function clientSuite(suite: ClientSuite): Promise<void> {
  const unmet = (suite.needs ?? []).filter((need) => ![need.path].flat().some((path) => existsSync(path)));
  const missing = unmet.length === 0 ? null : `the ${suite.language} client's suite needs: ${unmet.map((need) => need.install).join('; ')}`;
  if (missing) {
    describe(`${suite.language} client`, () => {
      it('toolchain is installed', () => {
        throw new Error(missing);
      });
    });
    return;
  }
  const scratch = mkdtempSync(join(tmpdir(), `cambio-${suite.language}-`));
  const kind = suite.report ?? 'junit';
  const report = kind === 'junit' ? join(scratch, 'report.xml') : scratch;
  const live = await startConformanceRuntime(inject('dynamoEndpoint'));
  let run: { code: number | null; output: string };
  try {
    run = await runCommand(
      suite.command.map((part) => part.replaceAll('{report}', report)),
      resolve(ROOT, 'clients', suite.language),
      { ...process.env, ...live.env, ...suite.env },
      suite.timeoutMs ?? 300_000,
    );
  } finally {
    await live.stop();
  }
  const cases = readCases(kind, report);
  rmSync(scratch, { recursive: true, force: true });

  describe(`${suite.language} client`, () => {
    for (const result of cases) {
      it(result.name, () => {
        if (result.skipped) throw new Error('skipped, though the conformance runtime was up');
        if (result.failure) throw new Error(result.failure);
      });
    }
    // A crash, a compile error or a runner that found nothing is a failure too, with its output.
    if (cases.length === 0 || (run.code !== 0 && !cases.some((c) => c.failure))) {
      it(`${suite.command.join(' ')} ran cleanly`, () => {
        throw new Error(`exit ${run.code}, ${cases.length} cases reported\n${run.output.slice(-6000)}`);
      });
    }
  });
}

function runCommand(command: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command[0]!, command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      output += `\n[killed after ${timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      done({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

function readCases(kind: NonNullable<ClientSuite['report']>, report: string): CaseResult[] {
  if (kind === 'junit') return existsSync(report) ? junitCases(readFileSync(report, 'utf8')) : [];
  if (!existsSync(report) || !statSync(report).isDirectory()) return [];
  const files = walk(report).filter((file) => file.endsWith(kind === 'trx' ? '.trx' : '.xml'));
  return files.flatMap((file) => (kind === 'trx' ? trxCases : junitCases)(readFileSync(file, 'utf8')));
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return match ? unescapeXml(match[1]!) : undefined;
};

/** JUnit XML as pytest, PHPUnit, Surefire and our minitest reporter write it. */
export function junitCases(xml: string): CaseResult[] {
  const cases: CaseResult[] = [];
  const pattern = /<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g;
  for (const match of xml.matchAll(pattern)) {
    const tag = match[1]!;
    const inner = match[3] ?? '';
    const className = attribute(tag, 'classname') ?? attribute(tag, 'class') ?? '';
    const name = attribute(tag, 'name') ?? '?';
    // PHPUnit 9.6 writes a test that raised a warning as <warning>: its run fails on it
    // (failOnWarning), so the case is a failure here too, not a pass.
    const problem = /<(failure|error|warning)\b([^>]*?)(\/>|>([\s\S]*?)<\/\1>)/.exec(inner);
    cases.push({
      name: className ? `${className} › ${name}` : name,
      failure: problem ? `${attribute(problem[2]!, 'message') ?? problem[1]}\n${unescapeXml(problem[4] ?? '')}`.trim() : null,
      skipped: /<skipped\b/.test(inner),
    });
  }
  return cases;
}

/** Visual Studio's TRX, as `dotnet test --logger trx` writes it. */
export function trxCases(xml: string): CaseResult[] {
  const cases: CaseResult[] = [];
  const pattern = /<UnitTestResult\b([^>]*?)(\/>|>([\s\S]*?)<\/UnitTestResult>)/g;
  for (const match of xml.matchAll(pattern)) {
    const tag = match[1]!;
    const outcome = attribute(tag, 'outcome') ?? '';
    const message = /<Message>([\s\S]*?)<\/Message>/.exec(match[3] ?? '');
    const trace = /<StackTrace>([\s\S]*?)<\/StackTrace>/.exec(match[3] ?? '');
    cases.push({
      name: attribute(tag, 'testName') ?? '?',
      failure: outcome === 'Passed' || outcome === 'NotExecuted' ? null : `${unescapeXml(message?.[1] ?? outcome)}\n${unescapeXml(trace?.[1] ?? '')}`.trim(),
      skipped: outcome === 'NotExecuted',
    });
  }
  return cases;
}

function unescapeXml(text: string): string {
  return text
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_, code: string) => String.fromCodePoint(parseInt(code, 16)))
    .replace(/&amp;/g, '&');
}
