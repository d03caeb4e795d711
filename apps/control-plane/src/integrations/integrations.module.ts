import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { IntegrationsController } from './integrations.controller';
import { IntegrationsRepository } from './integrations.repository';
import { IntegrationsService } from './integrations.service';
import { UndecryptableSecretsCheck } from './undecryptable-secrets.check';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [IntegrationsController],
  providers: [IntegrationsService, IntegrationsRepository, UndecryptableSecretsCheck],
  exports: [IntegrationsService],
})
export class IntegrationsModule {}
