import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DataTablesModule } from '../data-tables/data-tables.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { FunctionCatalogModule } from '../functions/function-catalog.module';
import { IntegrationsModule } from '../integrations/integrations.module';
import { ProjectsModule } from '../projects/projects.module';
import { SecretsModule } from '../secrets/secrets.module';
import { TestRunSandbox } from './sandbox/test-run-sandbox';
import { TestRunThrottle } from './test-run-throttle';
import { FunctionTestRunsController, TestRunsController } from './test-runs.controller';
import { TestRunsService } from './test-runs.service';

/** Workshop test runs: `POST /v1/projects/:id/endpoints/:eid/test-runs`. */
@Module({
  imports: [AuthModule, ProjectsModule, IntegrationsModule, SecretsModule, EndpointsModule, DataTablesModule, FunctionCatalogModule],
  controllers: [TestRunsController, FunctionTestRunsController],
  providers: [TestRunsService, TestRunSandbox, TestRunThrottle],
})
export class TestRunsModule {}
