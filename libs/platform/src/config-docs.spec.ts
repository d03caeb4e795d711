import { z } from 'zod';
import { documentedVariables } from './config-docs';

describe('documentedVariables', () => {
  it('reads name, default and description through refinements, transforms and optional values', () => {
    const schema = z
      .object({
        PORT: z.coerce.number().int().default(8080).describe('listening port'),
        BROKERS: z
          .string()
          .default('127.0.0.1:9092')
          .transform((value) => value.split(','))
          .describe('comma-separated host:port'),
        TOKEN: z.string().optional().describe('a secret'),
        THREADS: z.coerce.number().default(2).describe('threads').meta({ defaultText: "the machine's cores" }),
        UNDOCUMENTED: z.string().default('x'),
      })
      .refine(() => true)
      .transform((value) => ({ port: value.PORT }));
    expect(documentedVariables(schema)).toEqual([
      { name: 'PORT', defaultText: '`8080`', description: 'listening port' },
      { name: 'BROKERS', defaultText: '`127.0.0.1:9092`', description: 'comma-separated host:port' },
      { name: 'TOKEN', defaultText: '—', description: 'a secret' },
      { name: 'THREADS', defaultText: "the machine's cores", description: 'threads' },
      { name: 'UNDOCUMENTED', defaultText: '`x`', description: undefined },
    ]);
  });

  it('refuses a schema that is not an object of variables', () => {
    expect(() => documentedVariables(z.string())).toThrow('not an object schema');
  });
});
