import { defineBlock } from '../block-definition';
import { codecConfig, prepareCodec, type CodecConfig } from '../common/codec-block';
import { textOutput } from '../common/fields';

export const encodeTextBlock = defineBlock<CodecConfig>({
  type: 'encode_text',
  label: 'Encode Text',
  category: 'text',
  description: 'Converts text into Base64, Base64URL, Hex, UTF-8, ASCII or Binary.',
  config: codecConfig,
  flow: 'next',
  outputs: ({ ref }) => textOutput(ref),
  prepare: prepareCodec('encode'),
});
