import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsController } from './projects.controller';
import { ProjectsRepository } from './projects.repository';
import { ProjectsService } from './projects.service';
import { SubdomainsController } from './subdomains.controller';
import { SubdomainsService } from './subdomains.service';

@Module({
  imports: [AuthModule],
  controllers: [ProjectsController, SubdomainsController],
  providers: [ProjectsService, ProjectsRepository, SubdomainsService],
  exports: [ProjectsService],
})
export class ProjectsModule {}
