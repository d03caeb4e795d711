import { randomUUID } from 'node:crypto';
import { requestLogEventSchema } from '@flowgate/contracts';
import fc from 'fast-check';
import { makeEvent } from '@flowgate/testing';
import { FAST_CHECK_FIELDS, fastCheckApplies, fastCheckRequestLogEvent } from './request-log.fast-check';

const valid = () => makeEvent({ key_id: randomUUID(), query: 'page=2' });

/** Values a field may be replaced with: valid ones, near misses and wrong types. */
const oddValue = fc.oneof(
  fc.constantFrom(
    null,
    undefined,
    '',
    0,
    -0,
    -1,
    99,
    100,
    599,
    600,
    200.5,
    Number.POSITIVE_INFINITY,
    Number.MAX_SAFE_INTEGER + 2,
    true,
    [],
    {},
    'GET',
    'x'.repeat(17),
    'x'.repeat(2049),
    'x'.repeat(1025),
    'x'.repeat(101),
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'AAAAAAAA-AAAA-4AAA-8AAA-AAAAAAAAAAAA',
    '6f1c0c7e-8d7b-4c1e-9a57-0f3b3c2d1e0',
    '6f1c0c7e-8d7b-0c1e-9a57-0f3b3c2d1e0f',
    '6f1c0c7e-8d7b-4c1e-7a57-0f3b3c2d1e0f',
    '2026-11-24T10:00:00Z',
    '2026-11-24T10:00:00.123456+05:30',
    '2026-11-24T10:00:00.123-24:00',
    '2026-02-29T10:00:00.000Z',
    '2028-02-29T10:00:00.000Z',
    '2026-13-01T10:00:00.000Z',
    '2026-11-24T10:00:00.000',
    '2026-11-24 10:00:00.000Z',
    'live',
    'preview',
    'Live',
    'staging',
  ),
  fc.string({ maxLength: 40 }),
  fc.double(),
  fc.integer({ min: -1000, max: 1000 }),
);

/** What the fast check accepts, zod accepts and returns alike. */
function expectAcceptedAsZodDoes(event: Record<string, unknown>): void {
  const fast = fastCheckRequestLogEvent(event);
  if (fast === null) return;
  const zod = requestLogEventSchema.safeParse(event);
  expect(zod.success).toBe(true);
  expect(fast).toEqual(zod.data);
}

describe('fastCheckRequestLogEvent', () => {
  it('knows every field of the event schema (a new field must be handled there, or events would lose it)', () => {
    expect([...FAST_CHECK_FIELDS].sort()).toEqual(Object.keys(requestLogEventSchema.shape).sort());
    expect(fastCheckApplies).toBe(true);
  });

  it('returns a valid event exactly as zod does, unknown fields dropped and missing details defaulted', () => {
    const full = valid();
    expect(fastCheckRequestLogEvent(full)).toEqual(requestLogEventSchema.parse(full));
    const streamed = { ...full, streamed: true };
    expect(fastCheckRequestLogEvent(streamed)).toEqual(requestLogEventSchema.parse(streamed));
    const { query, message, error_node_id, environment, ...older } = { ...full, extra: 'dropped' };
    expect([query, message, error_node_id, environment]).toEqual(['page=2', null, null, 'live']);
    expect(fastCheckRequestLogEvent(older)).toEqual({ ...full, query: '', message: null, error_node_id: null, environment: 'live' });
    expect(fastCheckRequestLogEvent({ ...full, environment: 'preview' })).toEqual({ ...full, environment: 'preview' });
    expect(fastCheckRequestLogEvent(older)).toEqual(requestLogEventSchema.parse(older));
  });

  it('never accepts an event zod refuses, and agrees with zod on what it accepts (one or two fields changed at random)', () => {
    const field = fc.constantFrom(...FAST_CHECK_FIELDS);
    fc.assert(
      fc.property(fc.array(fc.tuple(field, oddValue), { minLength: 1, maxLength: 2 }), (changes) => {
        const event: Record<string, unknown> = valid();
        for (const [name, value] of changes) {
          if (value === undefined) delete event[name];
          else event[name] = value;
        }
        expectAcceptedAsZodDoes(event);
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with zod on the details text and the cache outcome, either changed at random', () => {
    const details = JSON.stringify({ headers: [['host', 'shop.example']], body: '{"a":1}', body_bytes: 7, body_truncated: false, response_bytes: 12 });
    const withDetails = { ...valid(), cache: 'hit', details, extra: 'dropped' };
    expect(fastCheckRequestLogEvent(withDetails)).not.toBeNull();
    expect(fastCheckRequestLogEvent(withDetails)).toEqual(requestLogEventSchema.parse(withDetails));
    const odd = fc.oneof(oddValue, fc.constantFrom('x'.repeat(64 * 1024), 'x'.repeat(64 * 1024 + 1), { headers: [] }, 'hit', 'miss', 'HIT'));
    fc.assert(
      fc.property(fc.constantFrom('details', 'cache'), odd, (name, value) => expectAcceptedAsZodDoes({ ...withDetails, [name]: value })),
      { numRuns: 2000 },
    );
  });

  it('leaves non-objects to zod', () => {
    for (const value of [null, 1, 'event', [valid()]]) expect(fastCheckRequestLogEvent(value)).toBeNull();
  });
});
