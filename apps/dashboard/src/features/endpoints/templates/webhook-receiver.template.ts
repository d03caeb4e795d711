import type { NewTable } from '../../../api/types';
import { chain, type FlowTemplate } from './flow-template';

/** Where the receiver keeps events (and the scheduled clean-up removes old ones). */
export const WEBHOOK_EVENTS: NewTable = { name: 'webhook_events', columns: [{ name: 'type', type: 'text' }, { name: 'payload', type: 'json' }] };

export const webhookReceiverTemplate: FlowTemplate = {
  title: 'Webhook receiver',
  description: 'POST /webhook takes a JSON event, stores it in the table webhook_events and acknowledges it with the stored id.',
  tables: [WEBHOOK_EVENTS],
  endpoints: [
    {
      name: 'Webhook receiver',
      method: 'POST',
      path: '/webhook',
      auth: 'none',
      query_params: [],
      flow: chain([
        { id: 'store', type: 'insert_row', config: { table: 'webhook_events', values: { type: '{body.type}', payload: '{body}' }, ref: 'event' } },
        { id: 'ack', type: 'respond', config: { status: 200, body: { received: true, id: '{result.event.id}' } } },
      ]),
    },
  ],
  tryIt: { method: 'POST', path: '/webhook', body: { type: 'order.paid', amount: 42 }, answer: { received: true } },
};
