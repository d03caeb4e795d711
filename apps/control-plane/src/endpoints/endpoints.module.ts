import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { DataTablesModule } from '../data-tables/data-tables.module';
import { IntegrationsModule } from '../integrations/integrations.module';
import { ProjectsModule } from '../projects/projects.module';
import { SecretsModule } from '../secrets/secrets.module';
import { DeploymentsController } from './deployments.controller';
import { DeploymentsService } from './deployments.service';
import { EndpointTransferController } from './endpoint-transfer.controller';
import { EndpointTransferService } from './endpoint-transfer.service';
import { EndpointsController } from './endpoints.controller';
import { EndpointsRepository } from './endpoints.repository';
import { EndpointsService } from './endpoints.service';
import { FlowCompiler } from './flow-compiler';
import { ProjectLimits } from './project-limits';
import { FunctionCatalogModule } from '../functions/function-catalog.module';

@Module({
  imports: [AuthModule, ProjectsModule, IntegrationsModule, SecretsModule, DataTablesModule, FunctionCatalogModule],
  controllers: [EndpointsController, DeploymentsController, EndpointTransferController],
  providers: [EndpointsService, DeploymentsService, EndpointsRepository, FlowCompiler, EndpointTransferService, ProjectLimits],
  exports: [EndpointsService, FlowCompiler, ProjectLimits],
})
export class EndpointsModule {}
