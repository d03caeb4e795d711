import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaClient } from '@flowgate/db';
import { SecretBox } from '@flowgate/platform';
import { PinoLogger } from 'nestjs-pino';

export interface UndecryptableIntegration {
  project_id: string;
  subdomain: string;
  kind: 'text_generation' | 'email';
}

/** Enough to act on in one log line; the count says how many more there are. */
const LISTED = 50;

/**
 * At start-up, says once which integrations cannot be decrypted with the configured keys (the
 * encryption key changed: a new clone's dev secrets, a mistyped or rotated production key).
 * Those integrations are published as not configured (their blocks are skipped) and shown with
 * `needs_new_secret`; everything else serves. Starting is never refused for this.
 */
@Injectable()
export class UndecryptableSecretsCheck implements OnApplicationBootstrap {
  constructor(
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    private readonly secrets: SecretBox,
    private readonly logger: PinoLogger,
  ) {
    logger.setContext('UndecryptableSecretsCheck');
  }

  async onApplicationBootstrap(): Promise<void> {
    try {
      const found = await this.find();
      if (found.length > 0)
        this.logger.error(
          { count: found.length, integrations: found.slice(0, LISTED) },
          `${found.length} integration secret(s) cannot be decrypted with FLOWGATE_ENCRYPTION_KEY` +
            ' (nor FLOWGATE_ENCRYPTION_KEY_PREVIOUS): the key changed since they were saved. These integrations are off' +
            ' (their blocks are skipped) until a new secret is saved for each in the dashboard, or until the old key is set' +
            ' as FLOWGATE_ENCRYPTION_KEY_PREVIOUS. Everything else is served.',
        );
    } catch (error) {
      this.logger.warn({ err: error }, 'could not check the integration secrets at start-up');
    }
  }

  /** Every integration whose stored secret no configured key opens, oldest project first. */
  async find(): Promise<UndecryptableIntegration[]> {
    const rows = await this.prisma.integration.findMany({
      select: { projectId: true, kind: true, secretEncrypted: true, project: { select: { subdomain: true } } },
      orderBy: [{ projectId: 'asc' }, { kind: 'asc' }],
    });
    return rows
      .filter((row) => this.secrets.open(row.secretEncrypted) === null)
      .map((row) => ({ project_id: row.projectId, subdomain: row.project.subdomain, kind: row.kind }));
  }
}
