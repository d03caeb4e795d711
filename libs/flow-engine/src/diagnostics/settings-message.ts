import { endpointSettingsSchema } from '../schema/endpoint-settings.schema';
import { fieldPhrase } from './zod-issues';

/**
 * A finding about the endpoint settings, worded the same in the browser's compile and for the
 * server's refusal of a Save: "Endpoint settings: Name is required", and for a list item
 * "Query parameter 1: key must not be empty" (the item names itself; no prefix needed).
 */
export function settingsMessage(path: readonly string[], phrase: string): string {
  if (path.length === 0) return `Endpoint settings: ${phrase}`;
  const field = fieldPhrase(path, endpointSettingsSchema.shape);
  return path.length > 1 ? `${field} ${phrase}` : `Endpoint settings: ${field} ${phrase}`;
}
