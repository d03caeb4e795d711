import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ProjectsModule } from '../projects/projects.module';
import { SecretsModule } from '../secrets/secrets.module';
import { AssistantController } from './assistant.controller';
import { AssistantModel } from './assistant-model';
import { AssistantService } from './assistant.service';

/** The drafting assistant: `POST /v1/projects/:id/assistant/drafts` (docs/assistant.md). */
@Module({
  imports: [AuthModule, ProjectsModule, EndpointsModule, SecretsModule],
  controllers: [AssistantController],
  providers: [AssistantService, AssistantModel],
})
export class AssistantModule {}
