import { chain, type FlowTemplate } from './flow-template';

export const tableCrudTemplate: FlowTemplate = {
  title: 'CRUD on a table',
  description: 'A table notes with POST /notes (add a note from {"text": …}), GET /notes (list them) and DELETE /notes?id=… (remove one).',
  tables: [{ name: 'notes', columns: [{ name: 'text', type: 'text', required: true }] }],
  endpoints: [
    {
      name: 'Add note',
      method: 'POST',
      path: '/notes',
      auth: 'none',
      query_params: [],
      flow: chain([
        { id: 'add', type: 'insert_row', config: { table: 'notes', values: { text: '{body.text}' }, ref: 'note' } },
        { id: 'answer', type: 'respond', config: { status: 201, body: { note: '{result.note}' } } },
      ]),
    },
    {
      name: 'List notes',
      method: 'GET',
      path: '/notes',
      auth: 'none',
      query_params: [],
      flow: chain([
        { id: 'list', type: 'query_rows', config: { table: 'notes', filter: [], limit: 100, ref: 'found' } },
        { id: 'answer', type: 'respond', config: { status: 200, body: { notes: '{result.found.rows}' } } },
      ]),
    },
    {
      name: 'Delete note',
      method: 'DELETE',
      path: '/notes',
      auth: 'none',
      query_params: [{ key: 'id', default: null }],
      flow: chain([
        { id: 'remove', type: 'delete_rows', config: { table: 'notes', filter: [{ column: 'id', operator: 'eq', value: '{params.id}' }], ref: 'removed' } },
        { id: 'answer', type: 'respond', config: { status: 200, body: { removed: '{result.removed.count}' } } },
      ]),
    },
  ],
  tryIt: { method: 'POST', path: '/notes', body: { text: 'first note' }, answer: { note: { text: 'first note' } } },
};
