import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { LogsController } from './logs.controller';
import { LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [LogsController],
  providers: [LogsService, LogsRepository],
})
export class LogsModule {}
