import type { z } from 'zod';
import { compileKit, compiledKit, sourceKit, type BlockDefinition } from './block-definition';
import { callFunctionBlock } from './call_function/call-function.block';
import { conditionBlock } from './condition/condition.block';
import { decodeTextBlock } from './decode_text/decode-text.block';
import { deleteRowsBlock } from './delete_rows/delete-rows.block';
import { forEachBlock } from './for_each/for-each.block';
import { encodeTextBlock } from './encode_text/encode-text.block';
import { generateTextBlock } from './generate_text/generate-text.block';
import { getRowBlock } from './get_row/get-row.block';
import { httpRequestBlock } from './http_request/http-request.block';
import { insertRowBlock } from './insert_row/insert-row.block';
import { manipulateImageBlock } from './manipulate_image/manipulate-image.block';
import { manipulateTextBlock } from './manipulate_text/manipulate-text.block';
import { matchRegexBlock } from './match_regex/match-regex.block';
import { queryRowsBlock } from './query_rows/query-rows.block';
import { respondBlock } from './respond/respond.block';
import { returnErrorBlock } from './return_error/return-error.block';
import { runCodeBlock } from './run_code/run-code.block';
import { sendEmailBlock } from './send_email/send-email.block';
import { setVariableBlock } from './set_variable/set-variable.block';
import { updateRowsBlock } from './update_rows/update-rows.block';
import { returnValueBlock } from './return_value/return-value.block';
import { startBlock } from './start/start.block';
import { streamTextBlock } from './stream_text/stream-text.block';

/** A block definition with its three config schemas built once. */
export interface RegisteredBlock {
  definition: BlockDefinition<unknown>;
  /** What the editor stores (the catalogue's schema). */
  sourceSchema: z.ZodObject;
  /** Parses templates into ASTs. */
  compileSchema: z.ZodType;
  /** Validates a stored compiled config. */
  compiledSchema: z.ZodType;
}

/** Order = the action pool's order. Adding a block: a folder under blocks/ and one line here. */
const DEFINITIONS: ReadonlyArray<BlockDefinition<never>> = [
  startBlock,
  setVariableBlock,
  encodeTextBlock,
  decodeTextBlock,
  manipulateTextBlock,
  matchRegexBlock,
  conditionBlock,
  runCodeBlock,
  callFunctionBlock,
  forEachBlock,
  queryRowsBlock,
  getRowBlock,
  insertRowBlock,
  updateRowsBlock,
  deleteRowsBlock,
  httpRequestBlock,
  manipulateImageBlock,
  generateTextBlock,
  streamTextBlock,
  sendEmailBlock,
  respondBlock,
  returnErrorBlock,
  returnValueBlock,
];

export const blockRegistry: ReadonlyMap<string, RegisteredBlock> = new Map(
  DEFINITIONS.map((definition) => [
    definition.type,
    {
      definition: definition as BlockDefinition<unknown>,
      sourceSchema: definition.config(sourceKit),
      compileSchema: definition.config(compileKit),
      compiledSchema: definition.config(compiledKit),
    },
  ]),
);

export const BLOCK_TYPES: readonly string[] = DEFINITIONS.map((definition) => definition.type);
