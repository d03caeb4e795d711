/**
 * `@flowgate/integrations/config`: the integrations' configuration alone. The control plane
 * validates these variables at boot; importing them from the package's index would load every
 * adapter (the image codec, the Anthropic SDK, BullMQ, the egress guard) before it listens.
 */
export * from './integrations.config';
export { DEFAULT_CLAUDE_MODEL } from './anthropic/claude-models.constant';
