export * from './ports';
export type { JsonValue } from './json';
export { flowDocumentSchema, flowNodeSchema, flowEdgeSchema } from './schema/flow-document.schema';
export { typedFlowDocumentSchema } from './schema/typed-flow.schema';
export type { FlowDocument, FlowNode, FlowEdge } from './schema/flow-document.schema';
export { endpointSettingsSchema, queryParamSchema, HTTP_METHODS, MAX_QUERY_PARAMS } from './schema/endpoint-settings.schema';
export type { EndpointSettings, HttpMethod, QueryParam } from './schema/endpoint-settings.schema';
export { queryValueProblem, typedQueryValue } from './schema/endpoint-settings.schema';
export {
  bodySchemaSchema,
  cacheSettingsSchema,
  signatureSettingsSchema,
  mcpSettingsSchema,
  QUERY_PARAM_TYPES,
  SIGNATURE_SCHEMES,
  MAX_BODY_SCHEMA_BYTES,
  MAX_BODY_SCHEMA_DEPTH,
} from './schema/inbound-settings.schema';
export type { BodySchema, CacheSettings, McpSettings, QueryParamType, SignatureScheme, SignatureSettings } from './schema/inbound-settings.schema';
export type { Diagnostic, CompileContext } from './diagnostics/diagnostic';
export { settingsMessage } from './diagnostics/settings-message';
export { validateFlow, compileFlow } from './compile/compile-flow';
export type { CompileInput, CompileResult } from './compile/compile-flow';
export { referencesAt } from './compile/reference-scope';
export { secretsReadBy } from './compile/secrets-read';
export type { ReferenceSuggestion } from './compile/reference-scope';
export { compiledFlowSchema, COMPILED_FLOW_FORMAT } from './compile/compiled-flow';
export type { CompiledFlow } from './compile/compiled-flow';
export { prepareFlow } from './execute/prepare-flow';
export type { PreparedFlow } from './execute/prepare-flow';
export { executeFlow, runFlow } from './execute/execute-flow';
export type { FlowRequest, FlowResult, ExecuteOptions, MemoryAccount } from './runtime/flow-io';
export type { CaughtError, FlowTracer, TracedAttempt, TracedBlock, SkipReason } from './runtime/flow-tracer';
export type { FlowLimits } from './runtime/flow-limits';
export { FairScheduler } from './runtime/fair-scheduler';
export type { FlowScheduler } from './runtime/fair-scheduler';
export { runRegexTask } from './blocks/match_regex/match-regex.block';
export { ENCODING_LABELS } from './blocks/common/text-encodings';
export { blockCatalogue } from './blocks/catalogue';
export type { BlockCatalogueEntry } from './blocks/catalogue';
export type { BlockCategory, BlockFlow } from './blocks/block-definition';
export type { TemplateAst, Reference } from './template/template-ast';
export { describeApi } from './openapi/describe-api';
export type { OpenApiDocument } from './openapi/describe-api';
export { tableUsesOf, TABLE_BLOCK_TYPES } from './blocks/common/table-uses';
export type { TableUse } from './blocks/common/table-uses';
export { functionInputSchema, functionInputListSchema, functionInputsSchema, FUNCTION_INPUT_TYPES, MAX_FUNCTION_INPUTS } from './schema/function-inputs.schema';
export type { FunctionInput, FunctionInputType } from './schema/function-inputs.schema';
export type { CallableFunction } from './diagnostics/diagnostic';
export type { FlowKind } from './compile/compile-flow';
export { functionCallsOf } from './compile/function-calls';
