// The REST objects of docs/control-plane.md under the names the dashboard uses, all taken from the generated
// OpenAPI types: a changed control-plane DTO changes these and the typecheck points at every use.
import type * as Api from './generated/openapi';

export type User = Api.MeResponseDto['user'];
export type Project = Api.ProjectDto;
export type ProjectChanges = Api.UpdateProjectDto;
export type NewProject = Api.CreateProjectDto;
export type Endpoint = Api.EndpointDto;
export type EndpointInput = Api.SaveEndpointDto;
export type ApiKey = Api.ApiKeyListDto['items'][number];
export type NewApiKey = Api.CreateApiKeyDto;
export type CreatedApiKey = Api.CreatedApiKeyDto;
export type Integration = Api.IntegrationDto;
export type TextGenerationInput = Api.PutTextGenerationDto;
export type EmailInput = Api.PutEmailDto;
export type LogEntry = Api.LogPageDto['items'][number];
export type LogDetail = Api.LogDetailDto;
export type LogStats = Api.LogStatsDto;
export type Secret = Api.SecretDto;
export type SecretInput = Api.PutSecretDto;
export type DataTable = Api.TableDto;
export type TableColumn = DataTable['columns'][number];
export type ColumnType = TableColumn['type'];
export type NewTable = Api.CreateTableDto;
export type TableChanges = Api.UpdateTableDto;
export type Row = Api.RowPageDto['items'][number];
export type RowValues = Api.RowValuesDto['values'];
export type FlowFunction = Api.FunctionDto;
export type FunctionInputBody = NonNullable<Api.SaveFunctionDto['inputs']>[number];
export type FunctionTestRunBody = Api.FunctionTestRunInputDto;
export type Schedule = Api.ScheduleDto;
export type ScheduleInput = Api.SaveScheduleDto;
