import { Global, Module } from '@nestjs/common';
import { PublicationReconciler } from './publication.reconciler';
import { PublicationRepository } from './publication.repository';
import { PublicationService } from './publication.service';
import { PublicationStore } from './publication.store';

/** The publisher every feature calls for changes that affect serving (see PublicationService). */
@Global()
@Module({
  providers: [PublicationService, PublicationRepository, PublicationStore, PublicationReconciler],
  exports: [PublicationService, PublicationStore, PublicationReconciler],
})
export class PublicationModule {}
