import type { Compartment } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, type RefObject } from 'react';
import type { ControlProps } from './field-shell';

/** Names the editor's textbox by its field's label and carries the field's problems (aria). */
export function useControlAttributes(view: RefObject<EditorView | null>, attributes: Compartment, control: ControlProps, extra: Record<string, string> = {}): void {
  const more = JSON.stringify(extra);
  useEffect(() => {
    view.current?.dispatch({
      effects: attributes.reconfigure(
        EditorView.contentAttributes.of({
          id: control.id,
          'aria-labelledby': control.labelId,
          ...(JSON.parse(more) as Record<string, string>),
          ...(control.invalid ? { 'aria-invalid': 'true' } : {}),
          ...(control.describedBy ? { 'aria-describedby': control.describedBy } : {}),
        }),
      ),
    });
  }, [view, attributes, control.id, control.labelId, control.invalid, control.describedBy, more]);
}

/** Undo, redo (and another editor of the same value) change it from outside: the editor follows without reporting a change. */
export function useExternalValue(view: RefObject<EditorView | null>, value: string, syncing: RefObject<boolean>): void {
  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      syncing.current = true;
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
      syncing.current = false;
    }
  }, [view, value, syncing]);
}

/** Tells the field of the user's edits (not of the changes `useExternalValue` makes). */
export const reportEdits = (syncing: RefObject<boolean>, onChange: (value: string) => void) =>
  EditorView.updateListener.of((update) => {
    if (update.docChanged && !syncing.current) onChange(update.state.doc.toString());
  });
