import { Handle, Position, type NodeProps } from '@xyflow/react';
import { memo } from 'react';
import { TraceBadge } from '../test-run/trace-badge';
import type { BlockNodeType } from './node-view';

/** One block on the canvas: label, reference name, its handles, and a mark when it has a problem. */
export const BlockNode = memo(function BlockNode({ id, data, selected }: NodeProps<BlockNodeType>) {
  const classes = ['ws-node', `ws-cat-${data.category}`, data.isStart ? 'ws-node-start' : '', selected ? 'ws-selected' : '', data.severity ? `ws-node-${data.severity}` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={classes}>
      {!data.isStart && <Handle type="target" position={Position.Left} />}
      <div className="ws-node-body">
        <span className="ws-node-title">{data.title}</span>
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
      {data.flow === 'branch' && (
        <>
          <Handle type="source" id="true" position={Position.Right} className="ws-handle-true" style={{ top: '30%' }} aria-label="true" />
          <span className="ws-handle-label ws-handle-label-true">true</span>
          <Handle type="source" id="false" position={Position.Right} className="ws-handle-false" style={{ top: '70%' }} aria-label="false" />
          <span className="ws-handle-label ws-handle-label-false">false</span>
        </>
      )}
    </div>
  );
});
