import { z } from 'zod';
import { defineBlock, valueSource, type ConfigKit, type KitMode } from '../block-definition';
import { compare, CONDITION_OPERATORS, UNARY_OPERATORS, type ConditionOperator } from './compare';

const config = <M extends KitMode>(kit: ConfigKit<M>) =>
  z
    .object({
      left: kit.template(valueSource('Left value')),
      operator: z.enum(CONDITION_OPERATORS).meta({ title: 'Operator' }),
      right: kit
        .template(valueSource('Right value'))
        .optional()
        .meta({ shownWhen: { operator: CONDITION_OPERATORS.filter((operator) => !UNARY_OPERATORS.has(operator)) } }),
    })
    .superRefine((value, context) => {
      if (value.right === undefined && !UNARY_OPERATORS.has(value.operator as ConditionOperator)) {
        context.addIssue({ code: 'custom', path: ['right'], message: `is required for ${value.operator}`, params: { code: 'required_field' } });
      }
    });
type ConditionConfig = z.output<ReturnType<typeof config<'compiled'>>>;

export const conditionBlock = defineBlock<ConditionConfig>({
  type: 'condition',
  label: 'Condition',
  category: 'logic',
  description: 'Compares two values and continues by the true or the false connection.',
  config,
  flow: 'branch',
  prepare: ({ left, operator, right }, context) => {
    const leftValue = context.value(left);
    const rightValue = right === undefined ? () => null : context.value(right);
    return (run) => compare(operator, leftValue(run), rightValue(run));
  },
});
