import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export const subdomainAvailabilitySchema = z.object({
  available: z.boolean(),
  reason: z.enum(['taken', 'reserved', 'invalid']).nullable().describe('Why the name cannot be used; null when it can'),
  message: z.string().nullable().describe('What is wrong with the name, in words; null when it can be used'),
});
export type SubdomainAvailability = z.infer<typeof subdomainAvailabilitySchema>;
export class SubdomainAvailabilityDto extends createZodDto(subdomainAvailabilitySchema) {}
