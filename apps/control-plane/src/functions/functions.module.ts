import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ProjectsModule } from '../projects/projects.module';
import { FunctionCatalogModule } from './function-catalog.module';
import { FunctionDeploymentsController } from './function-deployments.controller';
import { FunctionDeploymentsService } from './function-deployments.service';
import { FunctionsController } from './functions.controller';
import { FunctionsService } from './functions.service';

@Module({
  imports: [AuthModule, ProjectsModule, EndpointsModule, FunctionCatalogModule],
  controllers: [FunctionsController, FunctionDeploymentsController],
  providers: [FunctionsService, FunctionDeploymentsService],
  exports: [FunctionsService],
})
export class FunctionsModule {}
