import { z } from 'zod';
import type { JsonValue } from '../json';
import { referenceNameSchema } from './names';

export const FUNCTION_INPUT_TYPES = ['string', 'number', 'boolean', 'object', 'list', 'any'] as const;
export type FunctionInputType = (typeof FUNCTION_INPUT_TYPES)[number];
export const MAX_FUNCTION_INPUTS = 20;

/** One typed input of a function, read in its flow as `{input.NAME}`. */
export const functionInputSchema = z.object({
  name: referenceNameSchema.meta({ title: 'Input name' }),
  type: z.enum(FUNCTION_INPUT_TYPES).default('any').meta({ title: 'Type' }),
  required: z.boolean().default(false).meta({ title: 'Required' }),
  default: z.json().optional().meta({ title: 'Default' }),
});
export type FunctionInput = z.infer<typeof functionInputSchema>;

/** A function's inputs: names unique, defaults of their type (`functionInputsSchema` defaults to none). */
export const functionInputListSchema = z
  .array(functionInputSchema)
  .max(MAX_FUNCTION_INPUTS)
  .refine((inputs) => new Set(inputs.map((input) => input.name)).size === inputs.length, { error: 'must not contain the same name twice' })
  .superRefine((inputs, context) => {
    inputs.forEach((input, index) => {
      if (input.default !== undefined && !hasInputType(input.default, input.type))
        context.addIssue({ code: 'custom', path: [index, 'default'], message: `must be ${articleOf(input.type)}` });
    });
  });

export const functionInputsSchema = functionInputListSchema.default([]);

/** Whether a value is of an input's type (`list` is a JSON array, `object` a JSON object). */
export function hasInputType(value: unknown, type: FunctionInputType): boolean {
  switch (type) {
    case 'any':
      return true;
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'list':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

export const articleOf = (type: FunctionInputType): string => (type === 'any' ? 'any value' : type === 'object' ? 'an object' : `a ${type}`);

/** An input's value when the call gives none: its default, else null. */
export const inputFallback = (input: { default?: JsonValue }): JsonValue => (input.default === undefined ? null : input.default);
