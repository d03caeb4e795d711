import { z } from 'zod';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { errorCodeForStatus } from './error-codes';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    status: z.number().int().min(400).max(599).default(400).meta({ title: 'Status' }),
    message: kit.template(textSource('Message')),
    code: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,63}$/, { error: 'must be snake_case (lowercase letters, digits and _)' })
      .optional()
      .meta({ title: 'Error code' }),
  });
type ReturnErrorConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const returnErrorBlock = defineBlock<ReturnErrorConfig>({
  type: 'return_error',
  label: 'Return Error',
  category: 'output',
  description: 'Ends the flow with a 4xx/5xx status and the standard error body {success:false, code, message}.',
  config,
  flow: 'end',
  usableIn: ['endpoint', 'schedule'],
  prepare: ({ status, message, code }, context) => {
    const text = context.text(message);
    const errorCode = code ?? errorCodeForStatus(status);
    const nodeId = context.nodeId;
    return (run) => {
      run.result = { type: 'error', status, code: errorCode, message: text(run), node_id: nodeId };
    };
  },
});
