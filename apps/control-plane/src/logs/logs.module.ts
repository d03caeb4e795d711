import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { LogStatsRepository } from './log-stats.repository';
import { LogStatsService } from './log-stats.service';
import { LogsController } from './logs.controller';
import { LogsRepository } from './logs.repository';
import { LogsService } from './logs.service';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [LogsController],
  providers: [LogsService, LogsRepository, LogStatsService, LogStatsRepository],
})
export class LogsModule {}
