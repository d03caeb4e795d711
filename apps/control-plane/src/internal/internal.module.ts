import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { InternalApiKeysController } from './internal-api-keys.controller';
import { ServiceTokenGuard } from './service-token.guard';

@Module({
  imports: [ApiKeysModule],
  controllers: [InternalApiKeysController],
  providers: [ServiceTokenGuard],
})
export class InternalModule {}
