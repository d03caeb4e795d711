/**
 * The pages with a keyboard alone: sign up, create a project, create a key and close its
 * dialog, delete it through the confirmation — only Tab, typing, Enter, Space and Escape.
 */
import { randomBytes } from 'node:crypto';
import { browserSuite } from './support/browser-test';
import { tabTo } from './support/keyboard';

const { suite, test } = browserSuite();

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
