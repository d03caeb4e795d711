import fc from 'fast-check';
import { TEXT_ENCODINGS } from '../common/text-encodings';
import { request, respondBody, respondingFlow, runFlow } from '../../testing/flow-fixtures';

describe('Encode Text / Decode Text blocks', () => {
  it('stores the encoded text under its reference, readable as result and local', async () => {
    const flow = respondingFlow([{ type: 'encode_text', config: { input: '{body.text}', encoding: 'base64', ref: 'encoded' } }], { a: '{result.encoded}', b: '{local.encoded}' });
    await expect(respondBody(flow, { request: request({ body: { text: 'Hello' } }) })).resolves.toEqual({ a: 'SGVsbG8=', b: 'SGVsbG8=' });
  });

  it('encodes Base64URL without padding', async () => {
    const flow = respondingFlow([{ type: 'encode_text', config: { input: 'subject?', encoding: 'base64url', ref: 'e' } }], { e: '{result.e}' });
    await expect(respondBody(flow)).resolves.toEqual({ e: 'c3ViamVjdD8' });
  });

  it('decodes binary groups', async () => {
    const flow = respondingFlow([{ type: 'decode_text', config: { input: '01001000 01101001', encoding: 'binary', ref: 'd' } }], { d: '{result.d}' });
    await expect(respondBody(flow)).resolves.toEqual({ d: 'Hi' });
  });

  it('turns undecodable input into a flow error naming the block', async () => {
    const flow = respondingFlow([{ id: 'n3', type: 'decode_text', config: { input: 'xyz', encoding: 'hex', ref: 'd' } }], { d: '{result.d}' });
    await expect(runFlow(flow)).resolves.toEqual({ type: 'error', status: 500, code: 'flow_error', message: 'Decode Text (n3): input is not valid hex', node_id: 'n3' });
  });

  it('encodes the text form of a non-text value (numbers, JSON)', async () => {
    const flow = respondingFlow([{ type: 'encode_text', config: { input: '{body.n}', encoding: 'hex', ref: 'h' } }], { h: '{result.h}' });
    await expect(respondBody(flow, { request: request({ body: { n: 12 } }) })).resolves.toEqual({ h: '3132' });
  });

  it.each(TEXT_ENCODINGS)('round-trips random Unicode through a flow (%s)', async (encoding) => {
    const flow = respondingFlow(
      [
        { type: 'encode_text', config: { input: '{body.text}', encoding, ref: 'encoded' } },
        { type: 'decode_text', config: { input: '{result.encoded}', encoding, ref: 'decoded' } },
      ],
      { decoded: '{result.decoded}' },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 80 }), async (text) => {
        expect(await respondBody(flow, { request: request({ body: { text } }) })).toEqual({ decoded: text });
      }),
      { numRuns: 40 },
    );
  });
});
