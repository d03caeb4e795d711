import { z } from 'zod';
import { textSource, type BlockExecutor, type ConfigKit, type KitMode, type PrepareContext } from '../block-definition';
import { refField } from './fields';
import { encodedLength, TEXT_CODECS, TEXT_ENCODINGS, type TextEncoding } from './text-encodings';

/** Most characters one input character can become; below the limit at that rate, nothing needs counting. */
const MAX_GROWTH: Readonly<Record<TextEncoding, number>> = { base64: 4, base64url: 4, hex: 6, utf8: 3, ascii: 6, binary: 27 };

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
    // Decoding never lengthens text; encoding can (hex ×2, binary ×9 per byte), so it is sized first.
    if (direction === 'decode') {
      return (run) => {
        run.keep(slot, codec.decode(text(run)));
      };
    }
    return (run) => {
      const input = text(run);
      if (input.length * MAX_GROWTH[encoding] > run.limits.maxValueChars) run.fit(encodedLength(encoding, input));
      run.keep(slot, codec.encode(input));
    };
  };
