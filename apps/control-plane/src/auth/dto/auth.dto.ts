import { createZodDto } from 'nestjs-zod';
import { z } from 'zod';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be an email address'));

export const signupSchema = z.object({
  email,
  password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
});
export class SignupDto extends createZodDto(signupSchema) {}

export const loginSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'is required').max(254, 'must be at most 254 characters'),
  password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
});
export class LoginDto extends createZodDto(loginSchema) {}

export const changePasswordSchema = z.object({
  current_password: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  new_password: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
});
export class ChangePasswordDto extends createZodDto(changePasswordSchema) {}

export const userSchema = z.object({ id: z.uuid(), email: z.string(), created_at: z.string() });
export type UserView = z.infer<typeof userSchema>;

export class SessionResponseDto extends createZodDto(
  z.object({ user: userSchema, token: z.string().describe('Opaque session token; send it as `Authorization: Bearer <token>`') }),
) {}
export class MeResponseDto extends createZodDto(z.object({ user: userSchema })) {}
