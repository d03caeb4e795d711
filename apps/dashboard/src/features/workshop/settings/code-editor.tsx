import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionSource } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic as EditorDiagnostic } from '@codemirror/lint';
import { highlightSelectionMatches, search, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Text } from '@codemirror/state';
import { EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import type { Diagnostic } from '@flowgate/flow-engine';
import { classHighlighter } from '@lezer/highlight';
import { useEffect, useEffectEvent, useRef } from 'react';
import { reportEdits, useControlAttributes, useExternalValue } from './editor-binding';
import type { ControlProps } from './field-shell';

interface CodeEditorProps {
  control: ControlProps;
  value: string;
  onChange(value: string): void;
  /** The compile's findings about the code; those with a line are shown at it. */
  problems: readonly Diagnostic[];
  /** Completed after `input.`. */
  inputNames: readonly string[];
}

const theme = EditorView.theme({
  '&': { fontSize: '13px', maxHeight: '320px' },
  '.cm-scroller': { fontFamily: 'var(--ws-mono)', overflow: 'auto' },
  '.cm-content': { padding: '6px 0', minHeight: '96px' },
  '.cm-gutters': { background: 'var(--ws-surface-muted, transparent)', color: 'var(--ws-muted-text, #6b7280)', border: 'none' },
  '&.cm-focused': { outline: 'none' },
});

/** `input.` followed by a name being typed: the inputs the block gives the code. */
const inputCompletion =
  (names: () => readonly string[]): CompletionSource =>
  (context) => {
    const typed = context.matchBefore(/\binput\.[A-Za-z_0-9]*$/);
    if (typed === null) return null;
    return { from: typed.from + 'input.'.length, options: names().map((name) => ({ label: name, type: 'property', detail: 'input' })), validFor: /^[A-Za-z_0-9]*$/ };
  };

/** A finding's place in the document: from its column to the end of its line. */
function toEditorDiagnostics(doc: Text, problems: readonly Diagnostic[]): EditorDiagnostic[] {
  return problems.flatMap((problem) => {
    if (problem.line === undefined || problem.line < 1 || problem.line > doc.lines) return [];
    const line = doc.line(problem.line);
    const from = Math.min(line.from + Math.max(0, (problem.column ?? 1) - 1), line.to);
    return [{ from, to: Math.max(from, line.to), severity: problem.severity, message: problem.message.replace(/^[^:]+\([^)]*\): /, '') }];
  });
}

/**
 * Run Code's editor on CodeMirror 6: JavaScript highlighting, line numbers, bracket matching,
 * search (Ctrl/Cmd-F), the compile's syntax errors at their line, and completion of the
 * block's input names after `input.`. A textbox named by its field's label.
 */
export function CodeEditor({ control, value, onChange, problems, inputNames }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, inputNames });
  latest.current = { onChange, inputNames };
  const attributes = useRef(new Compartment());
  const syncing = useRef(false);

  const initial = useEffectEvent(() => value);
  useEffect(() => {
    const editor = new EditorView({
      parent: host.current as HTMLDivElement,
      state: EditorState.create({
        doc: initial(),
        extensions: [
          lineNumbers(),
          // The settings panel is narrow: long lines wrap rather than widen it.
          EditorView.lineWrapping,
          highlightActiveLineGutter(),
          highlightActiveLine(),
          history(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightSelectionMatches(),
          search({ top: true }),
          // Stable `tok-*` classes, coloured by the theme's CSS (light and dark).
          syntaxHighlighting(classHighlighter),
          javascript(),
          lintGutter(),
          autocompletion({ override: [inputCompletion(() => latest.current.inputNames)], icons: false }),
          keymap.of([...closeBracketsKeymap, ...completionKeymap, ...searchKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab]),
          attributes.current.of([]),
          theme,
          reportEdits(syncing, (text) => latest.current.onChange(text)),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
  }, []);

  useControlAttributes(view, attributes.current, control, { 'aria-multiline': 'true' });

  // Undo and redo of the Workshop change the value from outside.
  useExternalValue(view, value, syncing);

  useEffect(() => {
    const editor = view.current;
    if (editor) editor.dispatch(setDiagnostics(editor.state, toEditorDiagnostics(editor.state.doc, problems)));
  }, [problems, value]);

  return <div ref={host} className={control.invalid ? 'ws-template ws-code ws-invalid' : 'ws-template ws-code'} />;
}
