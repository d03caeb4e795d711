import { defineBlock } from '../block-definition';
import { codecConfig, prepareCodec, type CodecConfig } from '../common/codec-block';
import { textOutput } from '../common/fields';

export const decodeTextBlock = defineBlock<CodecConfig>({
  type: 'decode_text',
  label: 'Decode Text',
  category: 'text',
  description: 'Converts Base64, Base64URL, Hex, UTF-8, ASCII or Binary back into readable text.',
  config: codecConfig,
  flow: 'next',
  canFail: true,
  outputs: ({ ref }) => textOutput(ref),
  prepare: prepareCodec('decode'),
});
