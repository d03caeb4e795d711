import { Module } from '@nestjs/common';
import { AuthController } from './auth.controller';
import { AuthRepository } from './auth.repository';
import { AuthService } from './auth.service';
import { LoginThrottle } from './login-throttle';
import { PasswordHasher } from './password-hasher';
import { PasswordStrength } from './password-strength';
import { SessionGuard } from './session.guard';

@Module({
  controllers: [AuthController],
  providers: [AuthService, AuthRepository, PasswordHasher, PasswordStrength, LoginThrottle, SessionGuard],
  exports: [AuthService, SessionGuard],
})
export class AuthModule {}
