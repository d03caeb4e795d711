import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { cleanupOpenApiDoc } from 'nestjs-zod';
import { AppModule } from './app.module';
import { bodyParserErrors } from './common/body-parser-errors';
import { refuseCrossSiteWrites } from './common/cross-site-requests';
import { refuseDeepJson } from './common/json-depth-limit';
import { refuseNulCharacters } from './common/nul-characters';
import { fixNullableScalars } from './common/openapi-nullable';
import type { ControlPlaneConfig } from './config/control-plane.config';
import { separateListeners } from './internal/internal-listener';

/** Largest accepted JSON body; a flow document of the engine's maximum size fits well within it. */
const BODY_LIMIT = '1mb';

/**
 * Builds the initialised control-plane application (not yet listening). `main.ts` listens on
 * CONTROL_PLANE_PORT and, for the internal API, on CONTROL_PLANE_INTERNAL_HOST:PORT
 * (`internalRequestListener`); tests hand `app.getHttpServer()` (public) or that listener to supertest.
 */
export async function createControlPlaneApp(config: ControlPlaneConfig): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    bufferLogs: true,
    // No default parsers (they include urlencoded, a form a page of another site may post): the JSON one below.
    bodyParser: false,
    cors: { origin: config.corsOrigins, credentials: true },
  });
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.disable('x-powered-by');
  app.use(separateListeners);
  app.use(cookieParser());
  app.use(refuseCrossSiteWrites(config.corsOrigins));
  // JSON only (BodyMediaTypeGuard answers 415 to other bodies; a route may declare its own type).
  app.useBodyParser('json', { limit: BODY_LIMIT, verify: refuseDeepJson });
  app.use(bodyParserErrors);
  app.use(refuseNulCharacters);

  const description = new DocumentBuilder()
    .setTitle('Flowgate control plane')
    .setDescription(
      'Accounts, projects, integrations, endpoints (Save, Deploy, versions), API keys and request logs. ' +
        'Authenticate with `Authorization: Bearer <token>` from /v1/auth/login, or the `fg_session` cookie. ' +
        'Errors are `{success:false, code, message, details?}`.',
    )
    .setVersion('1')
    .addBearerAuth()
    .addCookieAuth('fg_session')
    .build();
  // The document is made on the first request for it (/docs, /docs-json), not at start-up:
  // turning every route's schemas into OpenAPI is about a sixth of the control plane's start-up
  // CPU, which a restarting control plane should not spend before it answers /readyz.
  SwaggerModule.setup('docs', app, () => cleanupOpenApiDoc(fixNullableScalars(SwaggerModule.createDocument(app, description))), { jsonDocumentUrl: 'docs-json' });

  await app.init();
  return app;
}
