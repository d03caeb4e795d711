import { Panel } from '@xyflow/react';
import type { FlowNode } from '@flowgate/flow-engine';
import { useState, type ReactNode } from 'react';
import { START_TYPE, type FlowKind } from '../model/workshop-document';
import { useWorkshop } from '../store/workshop-context';

const STORAGE_KEY = 'flowgate.workshop.first-run-hint';

const dismissed = (): boolean => {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'dismissed';
  } catch {
    return false;
  }
};

const ADD_BLOCKS = 'drag them from the pool onto the canvas, or select a block and double-click one in the pool.';

/** The three steps in the words of what is being built. */
const STEPS: Record<FlowKind, { title: string; fill: ReactNode; deploy: ReactNode }> = {
  endpoint: {
    title: 'Three steps to a live endpoint',
    fill: (
      <>
        on the right, then press <em>Test</em> to run the flow with a sample request.
      </>
    ),
    deploy: 'the live URL in the toolbar answers.',
  },
  function: {
    title: 'Three steps to a working function',
    fill: (
      <>
        and its inputs on the right, end each path with <em>Return</em>, then press <em>Test</em> to run it with sample inputs.
      </>
    ),
    deploy: 'endpoints, schedules and other functions of this project run it with the block Call Function.',
  },
  schedule: {
    title: 'Three steps to a running schedule',
    fill: (
      <>
        and the clock (cron and time zone) on the right.
      </>
    ),
    deploy: (
      <>
        it runs on its clock while <em>Enabled</em>; <em>Run now</em> runs it once straight away; its runs show in Logs.
      </>
    ),
  },
};

/** Only the kind's own blocks count: a new function comes with its Return. */
const isEmpty = (nodes: readonly FlowNode[], kind: FlowKind): boolean => nodes.filter((node) => node.type !== START_TYPE && !(kind === 'function' && node.type === 'return_value')).length === 0;

/** On a flow without blocks of its own, until dismissed once in this browser: the three steps to a live endpoint, function or schedule. */
export function FirstRunHint() {
  const [hidden, setHidden] = useState(dismissed);
  const kind = useWorkshop((state) => state.doc.settings.kind);
  const empty = useWorkshop((state) => isEmpty(state.doc.nodes, kind));
  if (hidden || !empty) return null;
  const steps = STEPS[kind];
  const dismiss = () => {
    setHidden(true);
    try {
      localStorage.setItem(STORAGE_KEY, 'dismissed');
    } catch {
      // storage blocked: hidden for this page only
    }
  };
  return (
    <Panel position="top-left" className="ws-first-run">
      <section role="region" aria-label="Getting started">
        <h2>{steps.title}</h2>
        <ol>
          <li>
            <strong>Add blocks</strong>: {ADD_BLOCKS}
          </li>
          <li>
            <strong>Fill in their settings</strong> {steps.fill}
          </li>
          <li>
            <strong>Deploy</strong>: {steps.deploy}
          </li>
        </ol>
        <button type="button" className="ws-button" onClick={dismiss}>
          Got it
        </button>
      </section>
    </Panel>
  );
}
