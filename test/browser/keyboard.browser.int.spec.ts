/**
 * The pages with a keyboard alone: sign up, create a project, create a key and close its
 * dialog, delete it through the confirmation — only Tab, typing, Enter, Space and Escape.
 */
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { browserSuite } from './support/browser-test';

const { suite, test } = browserSuite();

/** Presses Tab until the focused element has this accessible role and name (at most 40 times). */
async function tabTo(page: Page, role: string, name: string) {
  for (let i = 0; i < 40; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element) return null;
      const label = element.getAttribute('aria-label') ?? (element.id ? document.querySelector(`label[for="${element.id}"]`)?.textContent : null) ?? element.textContent;
      return { tag: element.tagName.toLowerCase(), role: element.getAttribute('role'), type: element.getAttribute('type'), label: (label ?? '').trim() };
    });
    if (!focused) continue;
    const actualRole =
      focused.role ??
      ({ a: 'link', button: 'button', select: 'combobox' } as Record<string, string>)[focused.tag] ??
      (focused.tag === 'input' ? (focused.type === 'number' ? 'spinbutton' : focused.type === 'checkbox' ? 'checkbox' : 'textbox') : focused.tag);
    if (actualRole === role && focused.label === name) return;
  }
  throw new Error(`Tab never reached ${role} "${name}"`);
}

test('sign up, create a project and a key, and delete it with the keyboard alone', async ({ page, consoleErrors }) => {
  await page.goto('/signup');
  await tabTo(page, 'textbox', 'Email');
  await page.keyboard.type(`keys-${randomBytes(5).toString('hex')}@example.test`);
  await tabTo(page, 'textbox', 'Password');
  await page.keyboard.type('correct horse battery staple');
  await page.keyboard.press('Enter');
  await page.waitForURL('**/projects');

  await tabTo(page, 'button', 'New project');
  await page.keyboard.press('Enter');
  // The form opens with the name focused.
  await page.keyboard.type('Keyboard only');
  await tabTo(page, 'textbox', 'Subdomain');
  await page.keyboard.press('Control+A');
  await page.keyboard.type(`kb${suite().stack.suffix}`);
  await page.getByText('Available').waitFor();
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/endpoints$/);

  await tabTo(page, 'link', 'Authentication');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/keys$/);
  await tabTo(page, 'textbox', 'Name');
  await page.keyboard.type('typed key');
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').waitFor();
  await page.keyboard.press('Escape');
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  await page.getByRole('row', { name: /typed key/ }).waitFor();

  await tabTo(page, 'button', 'Delete key typed key');
  await page.keyboard.press('Enter');
  await page.getByRole('alertdialog').waitFor();
  // Focus starts on Cancel; Tab reaches Delete.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Key typed key deleted').waitFor();
  expect(consoleErrors).toEqual([]);
});
