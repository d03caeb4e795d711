import type { IncomingMessage } from 'node:http';
import { jsonTooDeep } from '@flowgate/contracts';

/** A JSON body nested deeper than MAX_JSON_DEPTH; bodyParserErrors answers it 400 `invalid_json`. */
export class JsonTooDeepError extends Error {
  override name = 'JsonTooDeepError';
}

/**
 * `verify` hook of the JSON body parser: refuses over-deep JSON before it is parsed. Parsing
 * copes with any depth, but validating or storing a flow nested thousands of levels deep
 * overflows the stack ("Maximum call stack size exceeded") — see MAX_JSON_DEPTH.
 */
export function refuseDeepJson(_req: IncomingMessage, _res: unknown, body: Buffer, encoding: string): void {
  if (jsonTooDeep(body.toString((encoding || 'utf8') as BufferEncoding))) throw new JsonTooDeepError();
}
