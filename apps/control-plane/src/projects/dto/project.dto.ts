import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';
import { keptSubdomainSchema, subdomainSchema } from '../subdomain';

const name = z.string().trim().min(1, 'is required').max(100, 'must be at most 100 characters');

export class CreateProjectDto extends createZodDto(z.object({ name, subdomain: subdomainSchema })) {}

export class UpdateProjectDto extends createZodDto(
  z.object({ name: name.optional(), subdomain: keptSubdomainSchema.optional().describe('A new subdomain meets the rules of a new project'), require_auth: z.boolean().optional() }),
) {}

export const projectSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  subdomain: z.string(),
  require_auth: z.boolean(),
  base_url: z.string().describe('Where the gateway serves this project'),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ProjectView = z.infer<typeof projectSchema>;

export class ProjectDto extends createZodDto(projectSchema) {}
export class ProjectListDto extends createZodDto(z.object({ items: z.array(projectSchema) })) {}
