import { z } from 'zod';
import type { ImageOperation } from '../../ports';
import { BlockFailure } from '../../runtime/run-errors';
import { toText } from '../../template/to-text';
import { defineBlock, textSource, type ConfigKit, type KitMode } from '../block-definition';
import { refField, textOutput } from '../common/fields';
import { asNumber } from '../common/numbers';
import { portFailure } from '../common/port-failure';

export const IMAGE_OPERATIONS = ['contrast', 'brightness', 'saturation', 'grayscale', 'invert', 'blur', 'hue_rotate'] as const satisfies readonly ImageOperation[];

/** Accepted values, with the CSS Filter Effects meaning: percent, px for blur, degrees for hue. */
const VALUE_RANGE: Readonly<Record<ImageOperation, { min: number; max: number; unit: string }>> = {
  contrast: { min: 0, max: 1000, unit: '%' },
  brightness: { min: 0, max: 1000, unit: '%' },
  saturation: { min: 0, max: 1000, unit: '%' },
  grayscale: { min: 0, max: 100, unit: '%' },
  invert: { min: 0, max: 100, unit: '%' },
  blur: { min: 0, max: 100, unit: 'px' },
  hue_rotate: { min: -360, max: 360, unit: '°' },
};

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    image_url: kit.template(textSource('Image URL')),
    operation: z.enum(IMAGE_OPERATIONS).meta({ title: 'Operation' }),
    value: kit.template(z.union([z.number(), z.string()]).meta({ title: 'Value' })),
    ref: refField(),
  });
type ManipulateImageConfig = z.output<ReturnType<typeof config<'compiled'>>>;

function rangeProblem(operation: ImageOperation, value: unknown): string | null {
  const number = asNumber(value);
  const { min, max, unit } = VALUE_RANGE[operation];
  if (number === null) return `Value must be a number, got "${toText(value)}"`;
  if (number < min || number > max) return `Value for ${operation} must be between ${min} and ${max}${unit}, got ${number}`;
  return null;
}

export const manipulateImageBlock = defineBlock<ManipulateImageConfig>({
  type: 'manipulate_image',
  label: 'Manipulate Image',
  category: 'integrations',
  description: 'Applies contrast, brightness, saturation, grayscale, invert, blur or hue rotation; {result.REF} is the new image URL.',
  config,
  flow: 'next',
  async: true,
  canFail: true,
  outputs: ({ ref }) => textOutput(ref),
  check: ({ operation, value }, diagnostics) => {
    if (value.kind !== 'literal') return;
    const problem = rangeProblem(operation, value.value);
    if (problem !== null) diagnostics.error('invalid_field', 'value', `${problem}.`);
  },
  prepare: ({ image_url, operation, value, ref }, context) => {
    const slot = context.variable(ref);
    const url = context.text(image_url);
    const amount = context.value(value);
    return async (run) => {
      const images = run.ports.images;
      if (!images) return run.skip('integration_not_configured');
      const resolved = amount(run);
      const problem = rangeProblem(operation, resolved);
      if (problem !== null) throw new BlockFailure(problem);
      try {
        run.keep(slot, await images.manipulate({ image_url: url(run), operation, value: asNumber(resolved) as number }, run.signal));
      } catch (error) {
        throw portFailure(run, error, 'the image manipulation');
      }
    };
  },
});
