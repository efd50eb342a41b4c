import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalRuntime } from '#local/runtime';
import { startTestApi } from '../support/local-api.ts';
import { loadOpenApi, OPENAPI_PATH } from '../support/openapi.ts';
import { CHROMIUM, launchOfflineChromium } from '../support/offline-chromium.ts';

/**
 * The reference page as an integrator sees it: real headless Chromium (Debian's `chromium`,
 * driven by playwright-core) against the local runtime's /docs, with the network closed to
 * anything but this machine.
 */
const SCREENSHOT = fileURLToPath(new URL('../../test-artifacts/reference.png', import.meta.url));

let runtime: LocalRuntime;
let origin: string;

beforeAll(async () => {
  runtime = await startTestApi();
  origin = new URL(runtime.apiUrl).origin;
});

afterAll(async () => {
  await runtime?.stop();
});

describe('the local runtime serves the API reference', () => {
  it('serves the committed openapi.json at /openapi.json without credentials', async () => {
    const response = await fetch(`${origin}/openapi.json`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(readFileSync(OPENAPI_PATH, 'utf8'));
  });

  it('serves the page at /docs without credentials, with no link off this machine but documentation links', async () => {
    const response = await fetch(`${origin}/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|cdn\.redoc\.ly/i);
  });

  it('answers an unknown /docs path with the envelope, and still guards /v1', async () => {
    const missing = await fetch(`${origin}/docs/nope.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await fetch(`${origin}/v1/company`)).status).toBe(401);
  });

  it('renders in headless Chromium with no request off this machine, listing every route', async () => {
    // No silent skip: a skipped browser test reads as a green run with the page never rendered.
    if (!existsSync(CHROMIUM)) {
      throw new Error(`${CHROMIUM} is missing: the reference page's browser test needs Debian's chromium (apt-get install -y chromium; npm test's pretest, bin/test-deps.sh, installs it when run as root).`);
    }
    const { page, offMachine, close } = await launchOfflineChromium({ width: 1400, height: 1950 });
    try {
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));

      const response = await page.goto(`${origin}/docs`);
      expect(response?.status()).toBe(200);
      await page.waitForSelector('[data-section-id^="operation/"]', { timeout: 20_000 });

      const doc = loadOpenApi();
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries<{ operationId: string }>(item)) {
          const section = page.locator(`[data-section-id="operation/${operation.operationId}"]`).first();
          // Redoc shows the method upper-cased beside the path.
          const text = (await section.innerText()).replace(/\s+/g, ' ');
          expect(text, `${method} ${path}`).toContain(`${method.toUpperCase()} ${path} `);
        }
      }
      for (const type of Object.keys(doc.webhooks)) {
        expect(await page.locator('.menu-content').innerText()).toContain(type);
      }
      expect(offMachine).toEqual([]);
      expect(failed).toEqual([]);

      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });
      expect(existsSync(SCREENSHOT)).toBe(true);
    } finally {
      await close();
    }
  });
});
