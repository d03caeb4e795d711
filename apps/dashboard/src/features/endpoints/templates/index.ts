import type { FlowTemplate } from './flow-template';
import { helloTemplate } from './hello.template';
import { proxyWithSecretTemplate } from './proxy-with-secret.template';
import { scheduledCleanUpTemplate } from './scheduled-clean-up.template';
import { tableCrudTemplate } from './table-crud.template';
import { webhookReceiverTemplate } from './webhook-receiver.template';

export type { FlowTemplate } from './flow-template';

/** The starting points `Start from a template` offers, in this order. */
export const TEMPLATES: readonly FlowTemplate[] = [helloTemplate, webhookReceiverTemplate, proxyWithSecretTemplate, tableCrudTemplate, scheduledCleanUpTemplate];
