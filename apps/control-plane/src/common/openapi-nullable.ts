import type { OpenAPIObject } from '@nestjs/swagger';

const EMPTY_TYPE = 'x-nestjs_zod-empty-type';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema };

/**
 * Zod writes a nullable scalar as `type: ["string", "null"]`; @nestjs/swagger reads a list
 * `type` as "array of the first", so `live_url: string | null` was published as `string[]`.
 * nestjs-zod marks those properties (EMPTY_TYPE); this turns each back into the OpenAPI 3.0
 * form `{type: "string", nullable: true}` before `cleanupOpenApiDoc` removes the marks.
 */
export function fixNullableScalars(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {}) as Schema[]) {
    for (const property of Object.values(schema.properties ?? {})) {
      if (property[EMPTY_TYPE] !== true || property.type !== 'array' || typeof property.items?.type !== 'string') continue;
      property.type = property.items.type;
      property.nullable = true;
      delete property.items;
    }
  }
  return document;
}
