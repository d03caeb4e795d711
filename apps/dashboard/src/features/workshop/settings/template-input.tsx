import { autocompletion, closeBrackets, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView, keymap, placeholder as placeholderText, tooltips } from '@codemirror/view';
import type { ReferenceSuggestion } from '@flowgate/flow-engine';
import { useEffect, useEffectEvent, useRef } from 'react';
import { reportEdits, useControlAttributes, useExternalValue } from './editor-binding';
import type { ControlProps } from './field-shell';
import { referenceCompletion } from './reference-completion';

interface TemplateInputProps {
  control: ControlProps;
  value: string;
  onChange(value: string): void;
  suggestions(): readonly ReferenceSuggestion[];
  placeholder?: string;
}

/** The completion list keeps inside the settings panel (it is shifted left, never past its edge). */
const insidePanel = tooltips({
  tooltipSpace: (view) => {
    const panel = view.dom.closest('.ws-settings')?.getBoundingClientRect();
    return panel ?? { top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth };
  },
});

const theme = EditorView.theme({
  '&': { fontSize: '13px' },
  '.cm-content': { fontFamily: 'var(--ws-mono)', padding: '6px 0' },
  '&.cm-focused': { outline: 'none' },
});

/**
 * A template field on CodeMirror 6: a textbox named by its label, with completion of the
 * references valid at this block after `{`.
 */
export function TemplateInput({ control, value, onChange, suggestions, placeholder }: TemplateInputProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, suggestions });
  latest.current = { onChange, suggestions };
  const attributes = useRef(new Compartment());
  const syncing = useRef(false);

  // The editor is created once, with the value and placeholder of that moment; the value and the attributes follow through the effects below.
  const initial = useEffectEvent(() => ({ doc: value, hint: placeholder }));
  useEffect(() => {
    const { doc, hint } = initial();
    const editor = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc,
        extensions: [
          history(),
          closeBrackets(),
          EditorView.lineWrapping,
          insidePanel,
          autocompletion({ override: [referenceCompletion(() => latest.current.suggestions())], icons: false }),
          keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap]),
          hint ? placeholderText(hint) : [],
          attributes.current.of([]),
          theme,
          reportEdits(syncing, (text) => latest.current.onChange(text)),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useControlAttributes(view, attributes.current, control);

  // Undo, redo and the other side of Respond's editor change the value from outside.
  useExternalValue(view, value, syncing);

  return <div ref={host} className={control.invalid ? 'ws-template ws-invalid' : 'ws-template'} />;
}
