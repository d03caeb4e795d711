import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { createLogger } from '@flowgate/platform';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ZodSerializerInterceptor } from 'nestjs-zod';
import { LoggerModule } from 'nestjs-pino';
import { ApiDescriptionModule } from './api-description/api-description.module';
import { ApiKeysModule } from './api-keys/api-keys.module';
import { AssistantModule } from './assistant/assistant.module';
import { AuthModule } from './auth/auth.module';
import { BodyMediaTypeGuard } from './common/body-media-type';
import { GlobalExceptionFilter } from './common/exception.filter';
import { ValidationPipe } from './common/validation';
import type { ControlPlaneConfig } from './config/control-plane.config';
import { DataTablesModule } from './data-tables/data-tables.module';
import { FunctionsModule } from './functions/functions.module';
import { SchedulesModule } from './schedules/schedules.module';
import { EndpointsModule } from './endpoints/endpoints.module';
import { HealthModule } from './health/health.module';
import { InfrastructureModule } from './infrastructure/infrastructure.module';
import { IntegrationsModule } from './integrations/integrations.module';
import { InternalModule } from './internal/internal.module';
import { LogsModule } from './logs/logs.module';
import { ProjectsModule } from './projects/projects.module';
import { PublicationModule } from './publication/publication.module';
import { SecretsModule } from './secrets/secrets.module';
import { TestRunsModule } from './test-runs/test-runs.module';

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

@Module({})
export class AppModule {
  static forRoot(config: ControlPlaneConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        InfrastructureModule.forRoot(config),
        LoggerModule.forRoot({
          pinoHttp: {
            logger: createLogger('control-plane', config.logLevel),
            // Method, URL and status only: headers carry session tokens and cookies.
            serializers: {
              req: (req: IncomingMessage & { id?: unknown }) => ({ id: req.id, method: req.method, url: req.url }),
              res: (res: ServerResponse) => ({ statusCode: res.statusCode }),
            },
            customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
            autoLogging: { ignore: (req) => QUIET_PATHS.has((req.url ?? '').split('?')[0]!) },
          },
        }),
        HealthModule,
        PublicationModule,
        AuthModule,
        ProjectsModule,
        IntegrationsModule,
        SecretsModule,
        EndpointsModule,
        FunctionsModule,
        SchedulesModule,
        TestRunsModule,
        AssistantModule,
        ApiDescriptionModule,
        ApiKeysModule,
        DataTablesModule,
        LogsModule,
        InternalModule,
      ],
      providers: [
        { provide: APP_GUARD, useClass: BodyMediaTypeGuard },
        { provide: APP_PIPE, useClass: ValidationPipe },
        { provide: APP_INTERCEPTOR, useClass: ZodSerializerInterceptor },
        { provide: APP_FILTER, useClass: GlobalExceptionFilter },
      ],
    };
  }
}
