import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

export class MessageResponseDto extends createZodDto(z.object({ success: z.literal(true), message: z.string() })) {}

export const done = (message: string): { success: true; message: string } => ({ success: true, message });
