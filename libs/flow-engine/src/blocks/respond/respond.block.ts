import { z } from 'zod';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    status: z.number().int().min(200).max(599).default(200).meta({ title: 'Status' }),
    body: kit.template(valueSource('JSON Response')).prefault({}),
  });
type RespondConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const respondBlock = defineBlock<RespondConfig>({
  type: 'respond',
  label: 'Respond',
  category: 'output',
  description: 'Ends the flow and answers with a status and a JSON body; string values are templates.',
  config,
  flow: 'end',
  usableIn: ['endpoint', 'schedule'],
  prepare: ({ status, body }, context) => {
    const resolve = context.value(body);
    return (run) => {
      run.result = { type: 'response', status, body: resolve(run) };
    };
  },
});
