import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { ApiDescriptionController } from './api-description.controller';
import { ApiDescriptionService } from './api-description.service';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [ApiDescriptionController],
  providers: [ApiDescriptionService],
})
export class ApiDescriptionModule {}
