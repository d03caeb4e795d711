/**
 * Run Code in a real Chromium against the real stack: code written in the Workshop's editor, a
 * syntax error shown at its line after Save, fixed, and a test run showing the result and the
 * block's console output. Screenshots, light and dark, go to
 * .cache/browser-screenshots/run-code-*.png.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { browserSuite } from './support/browser-test';
import { SCREENSHOT_DIR } from './support/session';
import { addFromPool, newEndpoint, node, settings, signedInProject, textOf, typeWithReference } from './support/workshop-steps';

const { suite, test } = browserSuite();

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `run-code-${name}-${colorScheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** Replaces the editor's text by typing, closing the completion list before each new line. */
async function typeCode(editor: Locator, lines: string[]): Promise<void> {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.press('Delete');
  for (const [index, line] of lines.entries()) {
    if (index > 0) {
      await editor.press('Escape');
      await editor.press('Enter');
      // The editor indents a new line as the code goes: start it from the margin.
      await editor.press('Shift+Home');
      await editor.press('Delete');
    }
    await editor.pressSequentially(line);
  }
  await editor.press('Escape');
}

test('code written in the editor: a syntax error shows at its line after Save, the fixed code runs in a test', async ({ page, consoleErrors }) => {
  const { projectId } = await signedInProject(page, suite().stack);
  await newEndpoint(page, projectId);
  await node(page, 'GET /endpoint-1').click();

  await addFromPool(page, 'Run Code');
  const form = settings(page);
  await form.getByRole('textbox', { name: 'Reference Variable' }).fill('sum');
  await form.getByRole('button', { name: 'Add input' }).click();
  await form.getByRole('textbox', { name: 'Input name' }).fill('a');
  await form.getByRole('textbox', { name: 'Input value' }).pressSequentially('40');
  expect(await form.getByRole('spinbutton', { name: 'Timeout (ms)' }).inputValue()).toBe('100');

  const code = form.getByRole('textbox', { name: 'Code' });
  // The input's name completes after `input.`.
  await code.click();
  await code.pressSequentially('return input.');
  await page.getByRole('option', { name: 'a' }).waitFor();
  await typeCode(code, ['const total = input.a +;', 'return total']);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  const problem = form.getByText('SyntaxError: Unexpected token (line 1, column 24)');
  await problem.waitFor();
  await form.locator('.cm-lint-marker-error').waitFor();
  expect(await code.getAttribute('aria-invalid')).toBe('true');
  await screenshots(page, 'syntax-error');

  await typeCode(code, ['console.log("adding", input.a);', 'return input.a + 2;']);
  await problem.waitFor({ state: 'detached' });
  await addFromPool(page, 'Respond');
  await form.getByRole('button', { name: 'Add entry' }).click();
  await form.getByRole('textbox', { name: 'Key' }).fill('sum');
  await typeWithReference(form.getByRole('textbox', { name: 'Value' }), '', 'result.sum');

  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Test' });
  await panel.getByRole('button', { name: 'Run test' }).click();
  const result = panel.getByRole('region', { name: 'Test result' });
  expect(await textOf(result.getByLabel('Response body'))).toContain('"sum": 42');
  await page.getByRole('button', { name: 'Fit view' }).click();
  await node(page, 'Run Code · sum').click();
  const selected = panel.getByRole('region', { name: 'Selected block output' });
  expect(await textOf(selected.getByLabel('Output of Run Code'))).toBe('42');
  expect(await textOf(selected.getByLabel('Console of Run Code'))).toBe('adding 40\n');
  await screenshots(page, 'test-run');
  expect(consoleErrors).toEqual([]);
});
