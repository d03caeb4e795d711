import type { MouseEvent } from 'react';

/**
 * After an `Add …` button adds a row, the keyboard goes to the row's first field: the row is drawn
 * above the button, where Tab from the button would never lead (or the button is gone: the
 * body's first `Add field`). `listSelector` names the list the rows belong to (nested lists).
 */
export function focusAddedRow(event: MouseEvent<HTMLElement>, rowSelector: string, listSelector = 'fieldset'): void {
  const list = event.currentTarget.closest(listSelector);
  requestAnimationFrame(() => {
    const rows = list?.querySelectorAll(rowSelector);
    const last = rows?.[rows.length - 1];
    last?.querySelector<HTMLElement>('input, select, textarea, [contenteditable="true"]')?.focus();
  });
}

/**
 * After a button changes the list it stands in, the keyboard goes to `targetSelector` in that list,
 * not back to the page's start: a row's `Remove …` (gone with its row) and `Accept any body` to the
 * list's `Add …` button, `Edit as JSON Schema` to the schema it opens above itself.
 */
export function focusInList(event: MouseEvent<HTMLElement>, targetSelector: string, listSelector = 'fieldset'): void {
  const list = event.currentTarget.closest(listSelector);
  requestAnimationFrame(() => list?.querySelector<HTMLElement>(targetSelector)?.focus());
}
