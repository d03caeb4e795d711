import { chain, type FlowTemplate } from './flow-template';
import { WEBHOOK_EVENTS } from './webhook-receiver.template';

/** How old a row may get before the clean-up removes it. */
const KEEP_DAYS = 30;

export const scheduledCleanUpTemplate: FlowTemplate = {
  title: 'Scheduled clean-up',
  description: `Every night at 03:00 a schedule deletes the rows of webhook_events older than ${KEEP_DAYS} days (the cut-off worked out by Run Code from the run's time); its runs show in Logs.`,
  tables: [WEBHOOK_EVENTS],
  endpoints: [],
  schedules: [
    {
      name: 'Nightly clean-up',
      cron: '0 3 * * *',
      enabled: true,
      flow: chain([
        {
          id: 'cutoff',
          type: 'run_code',
          config: {
            code: `// The moment ${KEEP_DAYS} days before this run.\nreturn new Date(Date.parse(input.time) - input.days * 24 * 60 * 60 * 1000).toISOString();`,
            inputs: [
              { name: 'time', value: '{schedule.time}' },
              { name: 'days', value: KEEP_DAYS },
            ],
            ref: 'cutoff',
          },
        },
        { id: 'remove', type: 'delete_rows', config: { table: WEBHOOK_EVENTS.name, filter: [{ column: 'created_at', operator: 'lt', value: '{result.cutoff}' }], ref: 'removed' } },
        { id: 'report', type: 'respond', config: { status: 200, body: { removed: '{result.removed.count}', older_than: '{result.cutoff}' } } },
      ]),
    },
  ],
};
