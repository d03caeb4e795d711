import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { SecretsController } from './secrets.controller';
import { SecretsRepository } from './secrets.repository';
import { SecretsService } from './secrets.service';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [SecretsController],
  providers: [SecretsService, SecretsRepository],
  exports: [SecretsService],
})
export class SecretsModule {}
