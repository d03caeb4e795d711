import { Injectable } from '@nestjs/common';
import { MAX_SECRETS_PER_PROJECT, openSecrets, type OpenedSecrets, SECRET_NAME_PATTERN } from '@flowgate/contracts';
import { SecretBox } from '@flowgate/platform';
import { AppError, invalidRequest } from '../common/app-error';
import { ProjectsService } from '../projects/projects.service';
import { PublicationService } from '../publication/publication.service';
import type { PutSecretInput, SecretView } from './dto/secret.dto';
import { type SecretReader, type SecretRecord, SecretsRepository } from './secrets.repository';

export const SECRET_NAME_RULE = 'must start with an upper-case letter and hold only A–Z, 0–9 and _ (at most 64 characters)';

/**
 * A project's secrets: values go in encrypted and never come out. Every change is published
 * (sealed) before the answer, so the next request on every gateway reads the new value.
 */
@Injectable()
export class SecretsService {
  constructor(
    private readonly secrets: SecretsRepository,
    private readonly projects: ProjectsService,
    private readonly publication: PublicationService,
    private readonly box: SecretBox,
  ) {}

  async list(accountId: string, projectId: string): Promise<SecretView[]> {
    await this.projects.requireOwned(accountId, projectId);
    const [records, readers] = await Promise.all([this.secrets.list(projectId), this.secrets.liveReaders(projectId)]);
    return records.map((record) => viewOf(record, readers));
  }

  /** Creates (`created: true`) or replaces the secret. */
  async put(accountId: string, projectId: string, name: string, input: PutSecretInput): Promise<{ created: boolean; secret: SecretView }> {
    if (!SECRET_NAME_PATTERN.test(name)) throw invalidRequest('The request is not valid', [{ path: 'name', message: SECRET_NAME_RULE }]);
    const { record, created, readers } = await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const existing = await this.secrets.find(tx, projectId, name);
      const previewValueEncrypted =
        input.preview_value === undefined ? (existing?.previewValueEncrypted ?? null) : input.preview_value === null ? null : this.box.encrypt(input.preview_value);
      const description = input.description === undefined ? (existing?.description ?? null) : input.description || null;
      const fields = { description, valueEncrypted: this.box.encrypt(input.value), previewValueEncrypted };
      if (existing) return { record: await this.secrets.update(tx, existing.id, fields), created: false, readers: await this.secrets.liveReaders(projectId, tx) };
      if ((await this.secrets.count(tx, projectId)) >= MAX_SECRETS_PER_PROJECT)
        throw new AppError('secret_limit_reached', `A project keeps at most ${MAX_SECRETS_PER_PROJECT} secrets; delete one first`);
      return { record: await this.secrets.create(tx, projectId, { name, ...fields }), created: true, readers: [] };
    });
    return { created, secret: viewOf(record, readers) };
  }

  /** Refused while live endpoints read it, unless `force`: their blocks then fail naming the secret. */
  async remove(accountId: string, projectId: string, name: string, force: boolean): Promise<void> {
    await this.publication.changeServing({ projectId, accountId }, async (tx) => {
      const existing = SECRET_NAME_PATTERN.test(name) ? await this.secrets.find(tx, projectId, name) : null;
      if (!existing) throw new AppError('not_found', `This project has no secret named ${name}`);
      const readers = (await this.secrets.liveReaders(projectId, tx)).filter((reader) => reader.secrets.includes(name));
      if (readers.length > 0 && !force)
        throw new AppError(
          'secret_in_use',
          `Live endpoints read {secrets.${name}}: ${readers.map((reader) => reader.name).join(', ')}; change them first, or delete with ?force=true`,
          readers.map((reader) => ({ path: `endpoints.${reader.endpointId}`, message: `live endpoint "${reader.name}" reads {secrets.${name}}`, endpoint_id: reader.endpointId, name: reader.name })),
        );
      await this.secrets.delete(tx, existing.id);
    });
  }

  /**
   * For a test run: the values it reads (a test run runs a draft, like the preview address: the
   * preview value where one is set) and the masker of everything it shows.
   */
  async open(projectId: string): Promise<OpenedSecrets> {
    const records = await this.secrets.list(projectId);
    const published = records.map((record) => ({ name: record.name, value_encrypted: record.valueEncrypted, preview_value_encrypted: record.previewValueEncrypted }));
    return openSecrets(published, (sealed) => this.box.open(sealed)?.plaintext ?? null);
  }

  /** The names flows may read, for the `unknown_secret` check of Save, Deploy and test runs. */
  names(projectId: string): Promise<string[]> {
    return this.secrets.names(projectId);
  }
}

function viewOf(record: SecretRecord, readers: readonly SecretReader[]): SecretView {
  return {
    name: record.name,
    description: record.description,
    has_preview_value: record.previewValueEncrypted !== null,
    used_by: readers.filter((reader) => reader.secrets.includes(record.name)).map((reader) => ({ endpoint_id: reader.endpointId, name: reader.name })),
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}
