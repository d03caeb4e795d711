import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProjectsModule } from '../projects/projects.module';
import { RowsController } from './rows.controller';
import { RowsService } from './rows.service';
import { TablesController } from './tables.controller';
import { TablesRepository } from './tables.repository';
import { TablesService } from './tables.service';

@Module({
  imports: [AuthModule, ProjectsModule],
  controllers: [TablesController, RowsController],
  providers: [TablesService, TablesRepository, RowsService],
  exports: [TablesService, TablesRepository],
})
export class DataTablesModule {}
