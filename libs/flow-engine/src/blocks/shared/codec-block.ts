import { z } from 'zod';
import { textSource, type BlockExecutor, type ConfigKit, type KitMode, type PrepareContext } from '../block-definition';
import { refField } from './fields';
import { TEXT_CODECS, TEXT_ENCODINGS } from './text-encodings';

/** Encode Text and Decode Text share their fields; only the direction differs. */
export const codecConfig = <M extends KitMode>(kit: ConfigKit<M>) =>
  z.object({
    input: kit.template(textSource('Input Text')),
    encoding: z.enum(TEXT_ENCODINGS).meta({ title: 'Encoding Method' }),
    ref: refField(),
  });
export type CodecConfig = z.output<ReturnType<typeof codecConfig<'compiled'>>>;

export const prepareCodec =
  (direction: 'encode' | 'decode') =>
  ({ input, encoding, ref }: CodecConfig, context: PrepareContext): BlockExecutor => {
    const slot = context.variable(ref);
    const text = context.text(input);
    const codec = TEXT_CODECS[encoding];
    const convert = direction === 'encode' ? codec.encode : codec.decode;
    return (run) => {
      run.vars[slot] = convert(text(run));
    };
  };
