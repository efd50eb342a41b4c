import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll } from 'vitest';
import { createDocumentClient } from '#adapters/dynamo/client';
import type { LocalRuntime } from '#local/runtime';
import { buildDashboard, dashboardBuildIsStale } from '../../dashboard/build.ts';
import { STRONG_PASSWORD, verifyTokenMailedTo } from './dashboard.ts';
import { startTestApi } from './local-api.ts';
import { CHROMIUM, launchOfflineChromium, type OfflineChromium } from './offline-chromium.ts';

/**
 * The dashboard as a person uses it, for the end-to-end test files: Debian's Chromium, headless,
 * driven by playwright-core, against the local runtime (its API, its Cognito emulator, the built
 * app), with every request off this machine recorded. No silent skip: without Chromium this
 * fails and says how to install it.
 */
const SCREENSHOTS = fileURLToPath(new URL('../../test-artifacts/dashboard/', import.meta.url));
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface DashboardChromium extends Omit<OfflineChromium, 'close'> {
  runtime: LocalRuntime;
  origin: string;
  stop(): Promise<void>;
}

/** `runtimeOptions` go to the local runtime (e.g. its chain jobs on, for a payment to confirm). */
export async function startDashboardChromium(runtimeOptions: Parameters<typeof startTestApi>[0] = {}): Promise<DashboardChromium> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: the dashboard's end-to-end tests need Debian's chromium (apt-get install -y chromium; .ci/run installs it).`);
  }
  if (dashboardBuildIsStale()) buildDashboard();
  const runtime = await startTestApi(runtimeOptions);
  const { close, ...browser } = await launchOfflineChromium({ width: 1280, height: 860 });
  // A missing name fails in seconds, not at the test's 30 s timeout.
  browser.context.setDefaultTimeout(8_000);
  return {
    ...browser,
    runtime,
    origin: new URL(runtime.apiUrl).origin,
    async stop() {
      await close();
      await runtime.stop();
    },
  };
}

/** One Chromium and local runtime for a test file, with a document client on the runtime's table:
 * started before its tests, stopped after them. The fields are set once `beforeAll` has run. */
export function useDashboardChromium(runtimeOptions: Parameters<typeof startTestApi>[0] = {}): { chromium: DashboardChromium; page: Page; db: DynamoDBDocumentClient } {
  const env = {} as { chromium: DashboardChromium; page: Page; db: DynamoDBDocumentClient };
  beforeAll(async () => {
    env.chromium = await startDashboardChromium(runtimeOptions);
    env.page = env.chromium.page;
    env.db = createDocumentClient(env.chromium.runtime.dynamoEndpoint);
  });
  afterAll(async () => {
    env.db?.destroy();
    await env.chromium?.stop();
  });
  return env;
}

/** axe-core in the page: every serious or critical violation, by rule and the elements hit. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') rightly refuses
  // an inline <script>, and the test must not loosen it.
  await page.evaluate(AXE_SOURCE);
  const results = (await page.evaluate('axe.run(document)')) as { violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}

/** Into test-artifacts/dashboard/; the README's pictures in docs/dashboard/ are copied from there. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
}

/** A link of the dashboard's navigation, by its visible name. */
export const navLink = (page: Page, name: string) => page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name, exact: true });

/** Opens a page from the dashboard's navigation; resolves once its title (the link's name) shows. */
export async function openPage(page: Page, name: string): Promise<void> {
  await navLink(page, name).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
}

/** Signs `email` in through the sign-in page with the tests' password; resolves once the dashboard's
 * navigation shows. */
export async function signInThroughPage(chromium: DashboardChromium, email: string): Promise<void> {
  const { page } = chromium;
  await page.goto(`${chromium.origin}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
}

/** After `Create account`: the Check your mail page, then the mailed link's page confirmed with the
 * tests' password, which signs in. `check` runs on each of the two pages (an accessibility check). */
export async function confirmSignUpThroughMail(chromium: DashboardChromium, email: string, check: () => Promise<void> = async () => undefined): Promise<void> {
  const { page } = chromium;
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  await check();
  await page.goto(`${chromium.origin}/dashboard/verify-email?token=${verifyTokenMailedTo(chromium.runtime, email)}`);
  await page.getByRole('heading', { name: 'Confirm your email' }).waitFor();
  await page.getByLabel('Password').fill(STRONG_PASSWORD);
  await check();
  await page.getByRole('button', { name: 'Confirm and sign in' }).click();
}
