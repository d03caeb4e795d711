import { referenceNameSchema } from '../../schema/names';
import type { BlockOutput } from '../block-definition';

/** The "Reference Variable" every result-producing block has: read as {result.REF} / {local.REF}. */
export const refField = () => referenceNameSchema.meta({ title: 'Reference Variable' });

/** A block whose result is one text value (nothing below it). */
export const textOutput = (name: string): BlockOutput[] => [{ name, fields: [], readableByName: false }];
