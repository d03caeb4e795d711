import { Injectable } from '@nestjs/common';
import type { PublishedIntegrations } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { AppError } from '../common/app-error';
import { ProjectsService } from '../projects/projects.service';
import { sealForGateways } from '../publication/integration-secrets';
import { integrationSettingsOf, publishedIntegrationsOf } from '../publication/published-project.builder';
import { PublicationService } from '../publication/publication.service';
import type { IntegrationKindParam, IntegrationView } from './dto/integration.dto';
import { type IntegrationKind, type IntegrationRecord, IntegrationsRepository } from './integrations.repository';

export type IntegrationInput =
  | { kind: 'text-generation'; provider: 'anthropic'; api_key?: string; default_model?: string | null }
  | { kind: 'email'; provider: 'sendgrid'; api_key?: string; verified_domains: string[] };

const toKind = (param: IntegrationKindParam): IntegrationKind => (param === 'text-generation' ? 'text_generation' : 'email');
const toParam = (kind: IntegrationKind): IntegrationKindParam => (kind === 'text_generation' ? 'text-generation' : 'email');

/** Short secrets show nothing of themselves; longer ones their last four characters. */
const last4 = (secret: string): string => (secret.length >= 12 ? secret.slice(-4) : '');

@Injectable()
export class IntegrationsService {
  constructor(
    private readonly integrations: IntegrationsRepository,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly secrets: SecretBox,
  ) {}

  async list(accountId: string, projectId: string): Promise<IntegrationView[]> {
    await this.projects.requireOwned(accountId, projectId);
    return (await this.integrations.list(projectId)).map((record) => this.toView(record));
  }

  async get(accountId: string, projectId: string, kind: IntegrationKindParam): Promise<IntegrationView> {
    await this.projects.requireOwned(accountId, projectId);
    const integration = await this.integrations.find(projectId, toKind(kind));
    if (!integration) throw new AppError('not_found', `No ${kind} integration is configured`);
    return this.toView(integration);
  }

  /** Creates or replaces the integration; without `api_key` the stored secret is kept. Published before the answer. */
  async put(accountId: string, projectId: string, input: IntegrationInput): Promise<IntegrationView> {
    const kind = toKind(input.kind);
    const settings: Record<string, string | string[] | null> =
      input.kind === 'email' ? { verified_domains: [...new Set(input.verified_domains)] } : { default_model: input.default_model ?? null };
    const saved = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const existing = await this.integrations.find(projectId, kind, tx);
      const secret = input.api_key
        ? { secretEncrypted: this.secrets.encrypt(input.api_key), secretLast4: last4(input.api_key) }
        : existing && { secretEncrypted: existing.secretEncrypted, secretLast4: existing.secretLast4 };
      if (!secret)
        throw new AppError('invalid_request', 'The request is not valid', [
          { path: 'api_key', message: 'is required when the integration is first configured' },
        ]);
      if (!input.api_key && this.secrets.open(secret.secretEncrypted) === null)
        throw new AppError('invalid_request', 'The request is not valid', [
          { path: 'api_key', message: 'is required: the stored secret can no longer be decrypted (the encryption key changed)' },
        ]);
      return this.integrations.upsert(tx, projectId, kind, { provider: input.provider, ...secret, settings });
    });
    return this.toView(saved);
  }

  async remove(accountId: string, projectId: string, kind: IntegrationKindParam): Promise<void> {
    await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      if (!(await this.integrations.delete(tx, projectId, toKind(kind))))
        throw new AppError('not_found', `No ${kind} integration is configured`);
    });
  }

  /** With `needs_new_secret` when no key this process knows opens the stored secret. */
  private toView(record: IntegrationRecord): IntegrationView {
    return viewOf(record, this.secrets.open(record.secretEncrypted) === null);
  }

  /**
   * For a test run, from one read: the integrations exactly as the gateways receive them (a secret
   * no key opens: not configured) and the email integration's domains for the Send Email From check.
   */
  async forTestRun(projectId: string): Promise<{ published: PublishedIntegrations; emailVerifiedDomains: string[] | undefined }> {
    const records = await this.integrations.list(projectId);
    const email = records.find((record) => record.kind === 'email');
    return {
      published: publishedIntegrationsOf(records, (stored) => sealForGateways(this.secrets, stored)),
      emailVerifiedDomains: email ? settingsOf(email).verified_domains : undefined,
    };
  }

  /** Whether the project has a text-generation integration, for the Stream Text check at Deploy. */
  async hasTextGeneration(projectId: string): Promise<boolean> {
    return (await this.integrations.find(projectId, 'text_generation')) !== null;
  }

  /** Domains of the email integration, for the Send Email From check at Deploy. */
  async emailVerifiedDomains(projectId: string): Promise<string[] | undefined> {
    const email = await this.integrations.find(projectId, 'email');
    return email ? settingsOf(email).verified_domains : undefined;
  }
}

const settingsOf = (record: IntegrationRecord) => integrationSettingsOf(record.settings);

function viewOf(record: IntegrationRecord, needsNewSecret: boolean): IntegrationView {
  const settings = settingsOf(record);
  return {
    kind: toParam(record.kind),
    provider: record.provider,
    api_key_masked: `••••${record.secretLast4}`,
    needs_new_secret: needsNewSecret,
    ...(record.kind === 'text_generation' ? { default_model: settings.default_model } : { verified_domains: settings.verified_domains }),
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
