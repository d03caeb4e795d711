/**
 * The integration adapters, behind a relative module so that the gateway can load them on
 * first use (flow-ports.ts, images-route.ts): they bring the image codec (jimp), the
 * Anthropic SDK, BullMQ and SendGrid, about 50 MB of RSS that a gateway whose projects
 * never run those blocks does not need.
 */
export * from '@flowgate/integrations';
