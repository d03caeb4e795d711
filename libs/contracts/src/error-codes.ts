/** Error codes shared by the gateway and the control plane, with their HTTP status. */
export const ERROR_STATUS = {
  invalid_json: 400,
  invalid_request: 400,
  invalid_flow: 400,
  invalid_argument: 400,
  function_not_live: 400,
  function_cycle: 400,
  weak_password: 400,
  validation_failed: 400,
  unauthorized: 401,
  missing_api_key: 401,
  invalid_api_key: 401,
  invalid_credentials: 401,
  invalid_signature: 401,
  insufficient_permission: 403,
  forbidden: 403,
  not_found: 404,
  project_not_found: 404,
  endpoint_not_found: 404,
  api_key_not_found: 404,
  table_not_found: 404,
  row_not_found: 404,
  function_not_found: 404,
  schedule_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  path_taken: 409,
  secret_in_use: 409,
  unique_violation: 409,
  conversion_failed: 409,
  table_in_use: 409,
  column_in_use: 409,
  function_in_use: 409,
  request_timeout: 408,
  payload_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  value_too_large: 422,
  secret_limit_reached: 422,
  too_many_endpoints: 422,
  too_many_functions: 422,
  too_many_schedules: 422,
  project_too_large: 422,
  invalid_value: 422,
  run_memory_exceeded: 422,
  rate_limited: 429,
  too_many_attempts: 429,
  internal_error: 500,
  assistant_failed: 502,
  flow_error: 500,
  unavailable: 503,
  assistant_unavailable: 503,
  data_limit_reached: 507,
  flow_timeout: 504,
  flow_cpu_exceeded: 504,
  query_timeout: 504,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  path: string;
  message: string;
}

export interface ErrorBody {
  success: false;
  code: string;
  message: string;
  details?: unknown;
}

export const errorBody = (code: string, message: string, details?: unknown): ErrorBody =>
  details === undefined ? { success: false, code, message } : { success: false, code, message, details };
