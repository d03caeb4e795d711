import type { Page } from 'playwright-core';

/** Presses Tab until the control with this role and accessible name has the focus (at most `max` times). */
export async function tabTo(page: Page, role: Parameters<Page['getByRole']>[0], name: string, max = 40) {
  const target = page.getByRole(role, { name, exact: true });
  for (let i = 0; i < max; i += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === element.ownerDocument.activeElement).catch(() => false)) return;
  }
  throw new Error(`Tab never reached ${role} "${name}"`);
}
