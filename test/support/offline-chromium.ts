import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`; .ci/run installs it). */
export const CHROMIUM = '/usr/bin/chromium';

export interface OfflineChromium {
  context: BrowserContext;
  page: Page;
  /** Every request the page made to anything but this machine. */
  offMachine: string[];
  close(): Promise<void>;
}

/**
 * Headless Chromium driven by playwright-core, in a profile of its own, with Chromium's own
 * background traffic off (the machine's network is closed) and every request that leaves this
 * machine recorded, so a test can say the page loads nothing remote.
 */
export async function launchOfflineChromium(viewport: { width: number; height: number }): Promise<OfflineChromium> {
  const { chromium } = await import('playwright-core');
  const userDataDir = mkdtempSync(join(tmpdir(), 'cambio-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const offMachine: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) offMachine.push(request.url());
  });
  return {
    context,
    page,
    offMachine,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}
