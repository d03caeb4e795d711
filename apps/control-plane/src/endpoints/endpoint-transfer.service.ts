import { Injectable } from '@nestjs/common';
import { AppError } from '../common/app-error';
import { optionsOf } from './endpoint-options';
import { EXPORT_FORMAT, type EndpointExport } from './dto/endpoint-export.dto';
import { EndpointsService, type EndpointWithDiagnostics } from './endpoints.service';

/** Endpoints as files: export a draft, import one as a new draft (never live). */
@Injectable()
export class EndpointTransferService {
  constructor(private readonly endpoints: EndpointsService) {}

  /** The draft as the Workshop shows it (what Save stored), not the live version. */
  async export(accountId: string, projectId: string, endpointId: string) {
    const { name, method, path, auth, query_params, body_schema, signature, cache, mcp, flow } = await this.endpoints.get(accountId, projectId, endpointId);
    // Settings that are not set are left out: the file reads as files written before they existed.
    return { flowgate_export: EXPORT_FORMAT, endpoint: { name, method, path, auth, query_params, ...optionsOf({ body_schema, signature, cache, mcp }), flow } } as const;
  }

  async import(accountId: string, projectId: string, file: EndpointExport): Promise<EndpointWithDiagnostics> {
    try {
      return await this.endpoints.create(accountId, projectId, file.endpoint, 'import');
    } catch (error) {
      if (error instanceof AppError && error.code === 'conflict') {
        const { method, path } = file.endpoint;
        throw new AppError('path_taken', `Another endpoint of this project already answers ${method} ${path}; change the path in the file or the other endpoint`, [
          { path: 'endpoint.path', message: `${method} ${path} is taken` },
        ]);
      }
      throw error;
    }
  }
}
