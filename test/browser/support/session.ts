import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import path from 'node:path';

export const SCREENSHOT_DIR = path.resolve(__dirname, '../../../.cache/browser-screenshots');

export interface BrowserSession {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught page errors seen so far ("no console errors in normal use"). */
  consoleErrors: string[];
  close(): Promise<void>;
}

/** A fresh browser context (own cookies) with one page on `baseURL`, recording console errors. */
export async function openSession(
  browser: Browser,
  baseURL: string,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<BrowserSession> {
  const context = await browser.newContext({ baseURL, colorScheme: options.colorScheme ?? 'light', viewport: options.viewport ?? { width: 1280, height: 800 } });
  // A guard against hanging, not a speed test: a busy machine (Vite build, stack, Chromium on 2 cores) needs room.
  context.setDefaultTimeout(30_000);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  return { context, page, consoleErrors, close: () => context.close() };
}

/**
 * Runs one browser step; when it throws, a full-page screenshot named after the test goes to
 * .cache/browser-screenshots/ (git-ignored) and the error is rethrown with the file's path.
 */
export async function withScreenshotOnFailure<T>(page: Page, name: string, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    const file = path.join(SCREENSHOT_DIR, `${name.replace(/[^\w.-]+/g, '_')}-${Date.now()}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
    if (error instanceof Error) error.message += `\n(screenshot: ${path.relative(process.cwd(), file)})`;
    throw error;
  }
}

/** Signs in on /login and waits for the page `next` (a route of the dashboard) to open. */
export async function signIn(page: Page, email: string, password: string, next: string) {
  await page.goto(`/login?next=${encodeURIComponent(next)}`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**${next}`);
}
