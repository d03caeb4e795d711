import { Handle, Position, type NodeProps } from '@xyflow/react';
import { Fragment, memo } from 'react';
import { TraceBadge } from '../test-run/trace-badge';
import type { BlockNodeType } from './node-view';

/** One block on the canvas: label, reference name, its handles, and a mark when it has a problem. */
export const BlockNode = memo(function BlockNode({ id, data, selected }: NodeProps<BlockNodeType>) {
  const classes = [
    'ws-node',
    `ws-cat-${data.category}`,
    data.isStart ? 'ws-node-start' : '',
    selected ? 'ws-selected' : '',
    data.severity ? `ws-node-${data.severity}` : '',
    data.loopDepth > 0 ? `ws-in-loop ws-loop-depth-${Math.min(data.loopDepth, 3)}` : '',
    data.flow === 'loop' ? 'ws-node-loop' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {!data.isStart && <Handle type="target" position={Position.Left} />}
      <div className="ws-node-body">
        <span className="ws-node-title" title={data.title}>
          {data.title}
        </span>
        {data.isStart ? <span className="ws-node-sub">Base settings</span> : data.refName && <span className="ws-node-sub">{data.refName}</span>}
        {!data.isStart && <TraceBadge nodeId={id} />}
      </div>
      {data.severity && (
        <span className={`ws-node-mark ws-mark-${data.severity}`} aria-hidden="true">
          {data.severity === 'error' ? '!' : '?'}
        </span>
      )}
      {data.problems.length > 0 && (
        <div className="ws-node-problems" id={`ws-node-problems-${id}`} role="tooltip">
          {data.problems.map((message, index) => (
            <p key={index}>{message}</p>
          ))}
        </div>
      )}
      {data.flow === 'next' && <Handle type="source" position={Position.Right} />}
      {data.flow === 'branch' && <PairedHandles first="true" second="false" />}
      {data.flow === 'loop' && <PairedHandles first="each" second="done" />}
      {data.canFail && (
        <>
          <Handle type="source" id="error" position={Position.Bottom} className="ws-handle-error" aria-label="error" />
          <span className="ws-handle-label ws-handle-label-error">error</span>
        </>
      )}
    </div>
  );
});

/** Two named ways out on the right: a Condition's `true` / `false`, a For Each's `each` / `done`. */
function PairedHandles({ first, second }: { first: string; second: string }) {
  return (
    <>
      {[first, second].map((id, index) => (
        <Fragment key={id}>
          <Handle type="source" id={id} position={Position.Right} className={`ws-handle-${id}`} style={{ top: index === 0 ? '30%' : '70%' }} aria-label={id} />
          <span className={`ws-handle-label ws-handle-label-${id}`}>{id}</span>
        </Fragment>
      ))}
    </>
  );
}
