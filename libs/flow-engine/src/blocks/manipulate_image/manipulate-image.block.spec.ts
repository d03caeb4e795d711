import { EgressError, type ImagePort } from '../../ports';
import { diagnostics, linearFlow, request, respondBody, respondingFlow, runFlow, settings } from '../../testing/flow-fixtures';

const image = (config: Record<string, unknown> = {}) => ({
  id: 'img',
  type: 'manipulate_image',
  config: { image_url: 'https://img.example.com/{body.name}.png', operation: 'grayscale', value: 100, ref: 'gray', ...config } as never,
});

describe('Manipulate Image block', () => {
  it('calls the image port and stores the result URL under its reference', async () => {
    const calls: unknown[] = [];
    const images: ImagePort = {
      manipulate: async (request, signal) => {
        calls.push([request, signal instanceof AbortSignal]);
        return 'http://demo.localhost:8080/_images/abc.png';
      },
    };
    const flow = respondingFlow([image()], { url: '{result.gray}' });
    await expect(respondBody(flow, { ports: { images }, request: request({ body: { name: 'cat' } }) })).resolves.toEqual({ url: 'http://demo.localhost:8080/_images/abc.png' });
    expect(calls).toEqual([[{ image_url: 'https://img.example.com/cat.png', operation: 'grayscale', value: 100 }, true]]);
  });

  it('reads the value from a variable as a number', async () => {
    const seen: number[] = [];
    const images: ImagePort = { manipulate: async ({ value }) => (seen.push(value), 'u') };
    const endpoint = settings({ query_params: [{ key: 'deg', default: '90' }] });
    await respondBody(respondingFlow([image({ operation: 'hue_rotate', value: '{params.deg}' })], {}), { ports: { images }, settings: endpoint });
    expect(seen).toEqual([90]);
  });

  it('turns an egress error into a flow error naming the block', async () => {
    const images: ImagePort = {
      manipulate: async () => {
        throw new EgressError('egress_blocked', 'the address 10.0.0.1 is private');
      },
    };
    await expect(runFlow(respondingFlow([image()], {}), { ports: { images } })).resolves.toEqual({
      type: 'error',
      status: 500,
      code: 'flow_error',
      message: 'Manipulate Image (img): the image manipulation failed (egress_blocked): the address 10.0.0.1 is private',
      node_id: 'img',
    });
  });

  it('is skipped when no image port is configured', async () => {
    await expect(respondBody(respondingFlow([image()], { url: '{result.gray}' }))).resolves.toEqual({ url: null });
  });

  it('refuses a value outside the operation range, at deploy and at run time', async () => {
    expect(diagnostics(linearFlow([image({ operation: 'invert', value: 150 })]))).toContainEqual(expect.objectContaining({ code: 'invalid_field', field: 'value' }));
    const images: ImagePort = { manipulate: async () => 'u' };
    const endpoint = settings({ query_params: [{ key: 'v', default: 'lots' }] });
    const result = await runFlow(respondingFlow([image({ operation: 'blur', value: '{params.v}' })], {}), { ports: { images }, settings: endpoint });
    expect(result).toMatchObject({ type: 'error', code: 'flow_error', message: 'Manipulate Image (img): Value must be a number, got "lots"' });
  });
});
