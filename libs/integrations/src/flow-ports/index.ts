// `@flowgate/integrations/flow-ports`: the port factory without the adapters (they load on first use).
export { buildFlowPorts, createFlowPortsContext, type FlowPortsContext, type FlowPortsDeps, type PortsProject } from './flow-ports';
export { loadImageServing, loadIntegrations, type FlowPortsSettings } from './shared-integrations';
