import { Injectable } from '@nestjs/common';
import type { SubdomainAvailability } from './dto/subdomain-availability.dto';
import { ProjectsRepository } from './projects.repository';
import { RESERVED_SUBDOMAINS, subdomainSchema } from './subdomain';

@Injectable()
export class SubdomainsService {
  constructor(private readonly projects: ProjectsRepository) {}

  /** Same rules as creating a project (the schema), so "available" here means the create will not refuse it. */
  async availability(name: string): Promise<SubdomainAvailability> {
    const parsed = subdomainSchema.safeParse(name);
    if (!parsed.success) {
      const reserved = RESERVED_SUBDOMAINS.has(name.trim().toLowerCase());
      return { available: false, reason: reserved ? 'reserved' : 'invalid', message: `Subdomain ${parsed.error.issues[0]!.message}` };
    }
    if (await this.projects.subdomainExists(parsed.data)) return { available: false, reason: 'taken', message: 'Subdomain is already taken' };
    return { available: true, reason: null, message: null };
  }
}
