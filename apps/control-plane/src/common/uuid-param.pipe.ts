import { Injectable, type PipeTransform } from '@nestjs/common';
import type { ErrorCode } from '@flowgate/contracts';
import { AppError } from './app-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An id in the path that is not a UUID names nothing: 404 with the resource's code, like an unknown id. */
@Injectable()
export class UuidParam implements PipeTransform<string, string> {
  constructor(
    private readonly code: ErrorCode,
    private readonly message: string,
  ) {}

  transform(value: string): string {
    if (!UUID.test(value)) throw new AppError(this.code, this.message);
    return value.toLowerCase();
  }
}

export const projectIdParam = new UuidParam('project_not_found', 'Project not found');
export const endpointIdParam = new UuidParam('endpoint_not_found', 'Endpoint not found');
export const apiKeyIdParam = new UuidParam('api_key_not_found', 'API key not found');
export const tableIdParam = new UuidParam('table_not_found', 'Table not found');
export const rowIdParam = new UuidParam('row_not_found', 'Row not found');
export const functionIdParam = new UuidParam('function_not_found', 'Function not found');
export const scheduleIdParam = new UuidParam('schedule_not_found', 'Schedule not found');
