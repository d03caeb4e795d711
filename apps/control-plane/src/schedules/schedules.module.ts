import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { EndpointsModule } from '../endpoints/endpoints.module';
import { ProjectsModule } from '../projects/projects.module';
import { ScheduleClock } from './schedule-clock';
import { ScheduleDeploymentsController } from './schedule-deployments.controller';
import { ScheduleDeploymentsService } from './schedule-deployments.service';
import { SchedulesController } from './schedules.controller';
import { SchedulesRepository } from './schedules.repository';
import { SchedulesService } from './schedules.service';

/** `/v1/projects/:id/schedules`: flows on a clock, ticked by BullMQ job schedulers in the worker's queue. */
@Module({
  imports: [AuthModule, ProjectsModule, EndpointsModule],
  controllers: [SchedulesController, ScheduleDeploymentsController],
  providers: [SchedulesService, ScheduleDeploymentsService, SchedulesRepository, ScheduleClock],
})
export class SchedulesModule {}
