import { executeFlow } from '../execute/execute-flow';
import { prepareFlow } from '../execute/prepare-flow';
import { codes, diagnostics, linearFlow, request } from '../testing/flow-fixtures';
import { compileFlow } from './compile-flow';

describe("a schedule's flow", () => {
  it('reads {schedule.name} and {schedule.time}, and may end without Respond', async () => {
    const flow = linearFlow([{ type: 'respond', config: { body: { ran: '{schedule.name} at {schedule.time}' } } }]);
    const compiled = compileFlow({ flow, schedule: true });
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.diagnostics));
    const result = await executeFlow(prepareFlow(compiled.compiled), { ...request(), schedule: { name: 'Nightly', time: '2026-11-27T02:00:00.000Z' } }, {});
    expect(result).toEqual({ type: 'response', status: 200, body: { ran: 'Nightly at 2026-11-27T02:00:00.000Z' } });
    expect(compileFlow({ flow: linearFlow([{ type: 'set_variable', config: { name: 'a', value: 1 } }]), schedule: true }).diagnostics).toEqual([]);
  });

  it('refuses request references in a schedule and {schedule.…} elsewhere', () => {
    const refused = compileFlow({ flow: linearFlow([{ type: 'set_variable', config: { name: 'a', value: '{body.x} {schedule.when}' } }]), schedule: true });
    expect(codes(refused.diagnostics)).toEqual(['no_request_in_schedule', 'unknown_reference']);
    expect(codes(diagnostics(linearFlow([{ type: 'respond', config: { body: '{schedule.name}' } }])))).toEqual(['schedule_outside_schedule']);
  });
});
