import type { ArgumentsHost } from '@nestjs/common';
import { NotFoundException } from '@nestjs/common';
import type { PinoLogger } from 'nestjs-pino';
import { AppError } from './app-error';
import { GlobalExceptionFilter, loggable } from './exception.filter';

function harness() {
  const sent: { status?: number; body?: unknown; headers: Record<string, string> } = { headers: {} };
  const response = {
    headersSent: false,
    set(headers: Record<string, string>) {
      Object.assign(sent.headers, headers);
      return response;
    },
    status(code: number) {
      sent.status = code;
      return response;
    },
    json(body: unknown) {
      sent.body = body;
      return response;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => response }) } as unknown as ArgumentsHost;
  const logged: unknown[] = [];
  const logger = { setContext: () => undefined, error: (entry: unknown) => logged.push(entry) } as unknown as PinoLogger;
  return { filter: new GlobalExceptionFilter(logger), host, sent, logged };
}

describe('global exception filter', () => {
  it('renders an AppError with its status, details and headers', () => {
    const { filter, host, sent } = harness();
    filter.catch(new AppError('too_many_attempts', 'slow down', undefined, { 'Retry-After': '30' }), host);
    expect(sent).toEqual({ status: 429, body: { success: false, code: 'too_many_attempts', message: 'slow down' }, headers: { 'Retry-After': '30' } });
  });

  it('maps framework 404s to not_found', () => {
    const { filter, host, sent } = harness();
    filter.catch(new NotFoundException('Cannot GET /x'), host);
    expect(sent.body).toEqual({ success: false, code: 'not_found', message: 'Not found' });
  });

  it('answers anything else 500 with an error id, logs it, and shows no stack or message', () => {
    const { filter, host, sent, logged } = harness();
    filter.catch(new Error('connection string postgres://secret@db'), host);
    expect(sent.status).toBe(500);
    expect(sent.body).toEqual({ success: false, code: 'internal_error', message: 'Internal error', error_id: expect.any(String) });
    expect(JSON.stringify(sent.body)).not.toContain('secret');
    expect(logged).toEqual([expect.objectContaining({ error_id: (sent.body as { error_id: string }).error_id })]);
  });
});

describe('error logging', () => {
  it('keeps row data of Prisma errors out of the log', () => {
    const error = new Error('\nInvalid `prisma.account.create()` invocation in\n/app/x.ts:1:1\n\n  data: { passwordHash: "scrypt$secret" }\nUnique constraint failed on the fields: (`email`)');
    error.name = 'PrismaClientKnownRequestError';
    const logged = JSON.stringify(loggable(error));
    expect(logged).not.toContain('scrypt$secret');
    expect(logged).toContain('Unique constraint failed');
    expect(logged).toContain('Invalid `prisma.account.create()` invocation');
  });

  it('leaves other errors as they are', () => {
    const error = new Error('boom');
    expect(loggable(error)).toBe(error);
  });
});
