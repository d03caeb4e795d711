import { type Browser, chromium } from 'playwright-core';
import { ensureChromium } from '../../../scripts/lib/services';

/** Flags for a quiet, headless Chromium in a container: no sandbox (root), no GPU, no calls home. */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's /usr/bin/chromium (installed with apt when missing, like PostgreSQL), driven by playwright-core. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = await ensureChromium({ quiet: true });
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_FLAGS });
}
