import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium';
import { openSession, type BrowserSession, withScreenshotOnFailure } from './session';
import { type BrowserStack, startBrowserStack } from './stack';

export interface BrowserSuite {
  stack: BrowserStack;
  browser: Browser;
  /** A new signed-out browser context on the dashboard. */
  session(options?: Parameters<typeof openSession>[2]): Promise<BrowserSession>;
}

/**
 * Starts the stack and Chromium once for a test file (beforeAll) and stops both (afterAll).
 * Use `test` from here: it screenshots the page on failure. `controlPlaneEnv` (read when the
 * stack starts) adds variables to the control plane's environment (a stand-in's address).
 */
export function browserSuite(options: { worker?: boolean; controlPlaneEnv?: () => Record<string, string> } = {}): { suite: () => BrowserSuite; test: (name: string, fn: (session: BrowserSession) => Promise<void>, timeoutMs?: number) => void } {
  let stack: BrowserStack | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [stack, browser] = await Promise.all([startBrowserStack({ worker: options.worker, controlPlaneEnv: options.controlPlaneEnv?.() }), launchChromium()]);
  }, 240_000);
  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });
  const suite = (): BrowserSuite => {
    if (!stack || !browser) throw new Error('browserSuite: the stack did not start (see beforeAll)');
    const s = stack;
    const b = browser;
    return { stack: s, browser: b, session: (options) => openSession(b, s.dashboardUrl, options) };
  };
  const test = (name: string, fn: (session: BrowserSession) => Promise<void>, timeoutMs = 180_000) =>
    it(
      name,
      async () => {
        const session = await suite().session();
        try {
          await withScreenshotOnFailure(session.page, name, () => fn(session));
        } finally {
          await session.close();
        }
      },
      timeoutMs,
    );
  return { suite, test };
}
