// Generated from the control plane's OpenAPI document by scripts/lib/openapi-types.js.
// Do not edit: run `npm run api:types` after changing a control-plane DTO.
/* eslint-disable */

export type ApiKeyListDto = {
  items: Array<{
    id: string;
    name: string;
    last_used_at: string | null;
    created_at: string;
    ratelimit_min: number;
    permission: "user" | "admin";
    /** First characters of the secret, to recognise it */
    key_prefix: string;
  }>;
};

export type AssistantStatusDto = {
  /** False when the operator has not set FLOWGATE_ASSISTANT_API_KEY */
  available: boolean;
  /** Drafts one account may ask for in any sliding hour (ASSISTANT_PER_HOUR) */
  drafts_per_hour: number;
};

export type ChangePasswordDto = {
  current_password: string;
  new_password: string;
};

export type CreateApiKeyDto = {
  name: string;
  /** Requests per minute (sliding 60-second window) */
  ratelimit_min?: number;
  permission?: "user" | "admin";
};

export type CreatedApiKeyDto = {
  success: true;
  /** The secret; shown this once */
  key: string;
  key_data: {
    id: string;
    name: string;
    last_used_at: string | null;
    created_at: string;
    ratelimit_min: number;
    permission: "user" | "admin";
  };
};

export type CreateProjectDto = {
  name: string;
  subdomain: string;
};

export type CreateTableDto = {
  /** Unique in the project; what blocks name in `table` */
  name: string;
  columns?: Array<{
    name: string;
    type: "text" | "number" | "boolean" | "datetime" | "json";
    required?: boolean;
    unique?: boolean;
    /** A lookup index on the column (a unique column has one already) */
    indexed?: boolean;
  }>;
};

export type DraftDto = {
  /** The drafted flow document, as Save takes it */
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  /** The drafted endpoint settings (name, method, path, auth, query_params, …), as Save takes them */
  settings: { [key: string]: unknown };
  /** The model's account of the draft, for the person who asked */
  explanation: string;
  /** What Save would report for the draft: the problems left after the repair rounds */
  diagnostics: Array<{
    severity: "error" | "warning";
    code: string;
    node_id: string | null;
    field: string | null;
    message: string;
    /** Where in a code field (Run Code's `code`) the problem is: 1-based line */
    line?: number;
    /** 1-based column, with `line` */
    column?: number;
  }>;
  /** Tokens of every model call the draft took */
  usage: {
    input_tokens: number;
    output_tokens: number;
  };
};

export type DraftRequestDto = {
  /** What the endpoint should do, in plain words */
  prompt: string;
  /** An endpoint whose draft the assistant starts from (it is not changed) */
  endpoint_id?: string | null;
};

export type EndpointDto = {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  auth: "none" | "user" | "admin";
  query_params: Array<{
    key: string;
    default: string | null;
    type?: "string" | "number" | "integer" | "boolean" | "enum";
    required?: boolean;
    values?: Array<string>;
  }>;
  /** JSON Schema subset the body is checked against before the flow runs */
  body_schema: { [key: string]: unknown } | null;
  /** Webhook signature checked on the raw body before anything else */
  signature: {
    scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
    secret: string;
    header?: string;
    tolerance_s: number;
  } | null;
  /** GET answers cached in Redis, shared by every gateway */
  cache: {
    ttl_s: number;
    vary_query: boolean;
    vary_headers: Array<string>;
    per_key: boolean;
  } | null;
  /** A tool of the project's MCP server at /_mcp */
  mcp: {
    enabled: boolean;
    description?: string;
  } | null;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  status: "draft" | "live";
  live_version: number | null;
  /** The live version's address (base_url + its path), null when not deployed */
  live_url: string | null;
  /** The saved draft's address on the preview address (any API key of the project); served while the draft has no error diagnostics */
  preview_url: string;
  /** True when the draft differs from what is live (or nothing is live) */
  has_undeployed_changes: boolean;
  created_at: string;
  updated_at: string;
};

export type EndpointExportDto = {
  flowgate_export: 1;
  endpoint: {
    name: string;
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    auth?: "none" | "user" | "admin";
    query_params?: Array<{
      key: string;
      default?: string | null;
      type?: "string" | "number" | "integer" | "boolean" | "enum";
      required?: boolean;
      values?: Array<string>;
    }>;
    body_schema?: { [key: string]: unknown } | null;
    signature?: {
      scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
      secret: string;
      header?: string;
      tolerance_s?: number;
    } | null;
    cache?: {
      ttl_s: number;
      vary_query?: boolean;
      vary_headers?: Array<string>;
      per_key?: boolean;
    } | null;
    mcp?: {
      enabled: boolean;
      description?: string;
    } | null;
    flow?: {
      nodes: Array<{
        id: string;
        type: string;
        position: {
          x: number;
          y: number;
        };
        config?: { [key: string]: EndpointExportDto__schema0 };
      }>;
      edges: Array<{
        id: string;
        source: string;
        target: string;
        sourceHandle?: string | null;
      }>;
    };
  };
};

export type EndpointExportDto__schema0 = string | number | boolean | Array<EndpointExportDto__schema0> | { [key: string]: EndpointExportDto__schema0 } | null;

export type EndpointExportFileDto = {
  flowgate_export: 1;
  endpoint: {
    name: string;
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    auth: "none" | "user" | "admin";
    query_params: Array<{
      key: string;
      default: string | null;
      [key: string]: unknown;
    }>;
    /** JSON Schema subset the body is checked against before the flow runs */
    body_schema?: { [key: string]: unknown } | null;
    /** Webhook signature checked on the raw body before anything else */
    signature?: {
      scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
      secret: string;
      header?: string;
      tolerance_s: number;
    } | null;
    /** GET answers cached in Redis, shared by every gateway */
    cache?: {
      ttl_s: number;
      vary_query: boolean;
      vary_headers: Array<string>;
      per_key: boolean;
    } | null;
    /** A tool of the project's MCP server at /_mcp */
    mcp?: {
      enabled: boolean;
      description?: string;
    } | null;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
  };
};

export type EndpointListDto = {
  items: Array<{
    name: string;
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    auth: "none" | "user" | "admin";
    query_params: Array<{
      key: string;
      default: string | null;
      type?: "string" | "number" | "integer" | "boolean" | "enum";
      required?: boolean;
      values?: Array<string>;
    }>;
    /** JSON Schema subset the body is checked against before the flow runs */
    body_schema: { [key: string]: unknown } | null;
    /** Webhook signature checked on the raw body before anything else */
    signature: {
      scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
      secret: string;
      header?: string;
      tolerance_s: number;
    } | null;
    /** GET answers cached in Redis, shared by every gateway */
    cache: {
      ttl_s: number;
      vary_query: boolean;
      vary_headers: Array<string>;
      per_key: boolean;
    } | null;
    /** A tool of the project's MCP server at /_mcp */
    mcp: {
      enabled: boolean;
      description?: string;
    } | null;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    id: string;
    project_id: string;
    status: "draft" | "live";
    live_version: number | null;
    /** The live version's address (base_url + its path), null when not deployed */
    live_url: string | null;
    /** The saved draft's address on the preview address (any API key of the project); served while the draft has no error diagnostics */
    preview_url: string;
    /** True when the draft differs from what is live (or nothing is live) */
    has_undeployed_changes: boolean;
    created_at: string;
    updated_at: string;
  }>;
};

export type EndpointWithDiagnosticsDto = {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  auth: "none" | "user" | "admin";
  query_params: Array<{
    key: string;
    default: string | null;
    type?: "string" | "number" | "integer" | "boolean" | "enum";
    required?: boolean;
    values?: Array<string>;
  }>;
  /** JSON Schema subset the body is checked against before the flow runs */
  body_schema: { [key: string]: unknown } | null;
  /** Webhook signature checked on the raw body before anything else */
  signature: {
    scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
    secret: string;
    header?: string;
    tolerance_s: number;
  } | null;
  /** GET answers cached in Redis, shared by every gateway */
  cache: {
    ttl_s: number;
    vary_query: boolean;
    vary_headers: Array<string>;
    per_key: boolean;
  } | null;
  /** A tool of the project's MCP server at /_mcp */
  mcp: {
    enabled: boolean;
    description?: string;
  } | null;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  status: "draft" | "live";
  live_version: number | null;
  /** The live version's address (base_url + its path), null when not deployed */
  live_url: string | null;
  /** The saved draft's address on the preview address (any API key of the project); served while the draft has no error diagnostics */
  preview_url: string;
  /** True when the draft differs from what is live (or nothing is live) */
  has_undeployed_changes: boolean;
  created_at: string;
  updated_at: string;
  /** Validation findings of the flow; warnings never block Save or Deploy */
  diagnostics: Array<{
    severity: "error" | "warning";
    code: string;
    node_id: string | null;
    field: string | null;
    message: string;
    /** Where in a code field (Run Code's `code`) the problem is: 1-based line */
    line?: number;
    /** 1-based column, with `line` */
    column?: number;
  }>;
};

export type FunctionDto = {
  name: string;
  description: string;
  inputs: Array<{
    name: string;
    type: "string" | "number" | "boolean" | "object" | "list" | "any";
    required: boolean;
    default?: unknown;
  }>;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  status: "draft" | "live";
  live_version: number | null;
  /** True when the draft differs from what is live (or nothing is live) */
  has_undeployed_changes: boolean;
  created_at: string;
  updated_at: string;
};

export type FunctionExportDto = {
  flowgate_export: 1;
  function: {
    /** Unique in the project: Call Function's list shows it */
    name: string;
    description?: string;
    /** Typed inputs, read in the flow as {input.NAME} */
    inputs?: Array<{
      name: string;
      type?: "string" | "number" | "boolean" | "object" | "list" | "any";
      required?: boolean;
      default?: FunctionExportDto__schema0;
    }>;
    flow?: {
      nodes: Array<{
        id: string;
        type: string;
        position: {
          x: number;
          y: number;
        };
        config?: { [key: string]: FunctionExportDto__schema1 };
      }>;
      edges: Array<{
        id: string;
        source: string;
        target: string;
        sourceHandle?: string | null;
      }>;
    };
  };
};

export type FunctionExportDto__schema0 = string | number | boolean | Array<FunctionExportDto__schema0> | { [key: string]: FunctionExportDto__schema0 } | null;

export type FunctionExportDto__schema1 = string | number | boolean | Array<FunctionExportDto__schema1> | { [key: string]: FunctionExportDto__schema1 } | null;

export type FunctionExportFileDto = {
  flowgate_export: 1;
  function: {
    name: string;
    description: string;
    inputs: Array<{
      name: string;
      type: "string" | "number" | "boolean" | "object" | "list" | "any";
      required: boolean;
      default?: unknown;
    }>;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
  };
};

export type FunctionListDto = {
  items: Array<{
    name: string;
    description: string;
    inputs: Array<{
      name: string;
      type: "string" | "number" | "boolean" | "object" | "list" | "any";
      required: boolean;
      default?: unknown;
    }>;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    id: string;
    project_id: string;
    status: "draft" | "live";
    live_version: number | null;
    /** True when the draft differs from what is live (or nothing is live) */
    has_undeployed_changes: boolean;
    created_at: string;
    updated_at: string;
  }>;
};

export type FunctionTestRunInputDto = {
  /** The editor's current flow; default: the saved draft */
  flow?: {
    nodes: Array<{
      id: string;
      type: string;
      position: {
        x: number;
        y: number;
      };
      config?: { [key: string]: FunctionTestRunInputDto__schema0 };
    }>;
    edges: Array<{
      id: string;
      source: string;
      target: string;
      sourceHandle?: string | null;
    }>;
  };
  /** The editor's inputs; default: the saved draft's */
  inputs?: Array<{
    name: string;
    type?: "string" | "number" | "boolean" | "object" | "list" | "any";
    required?: boolean;
    default?: FunctionTestRunInputDto__schema1;
  }>;
  /** One value per input, by name (string values are templates) */
  args?: { [key: string]: FunctionTestRunInputDto__schema2 };
  send_email?: boolean;
};

export type FunctionTestRunInputDto__schema0 = string | number | boolean | Array<FunctionTestRunInputDto__schema0> | { [key: string]: FunctionTestRunInputDto__schema0 } | null;

export type FunctionTestRunInputDto__schema1 = string | number | boolean | Array<FunctionTestRunInputDto__schema1> | { [key: string]: FunctionTestRunInputDto__schema1 } | null;

export type FunctionTestRunInputDto__schema2 = string | number | boolean | Array<FunctionTestRunInputDto__schema2> | { [key: string]: FunctionTestRunInputDto__schema2 } | null;

export type FunctionVersionDto = {
  name: string;
  description: string;
  inputs: Array<{
    name: string;
    type: "string" | "number" | "boolean" | "object" | "list" | "any";
    required: boolean;
    default?: unknown;
  }>;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  version: number;
  live: boolean;
  created_at: string;
};

export type FunctionVersionListDto = {
  items: Array<{
    name: string;
    description: string;
    inputs: Array<{
      name: string;
      type: "string" | "number" | "boolean" | "object" | "list" | "any";
      required: boolean;
      default?: unknown;
    }>;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    version: number;
    live: boolean;
    created_at: string;
  }>;
};

export type FunctionWithDiagnosticsDto = {
  name: string;
  description: string;
  inputs: Array<{
    name: string;
    type: "string" | "number" | "boolean" | "object" | "list" | "any";
    required: boolean;
    default?: unknown;
  }>;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  status: "draft" | "live";
  live_version: number | null;
  /** True when the draft differs from what is live (or nothing is live) */
  has_undeployed_changes: boolean;
  created_at: string;
  updated_at: string;
  diagnostics: Array<{
    severity: "error" | "warning";
    code: string;
    node_id: string | null;
    field: string | null;
    message: string;
    /** Where in a code field (Run Code's `code`) the problem is: 1-based line */
    line?: number;
    /** 1-based column, with `line` */
    column?: number;
  }>;
};

export type ImportResultDto = {
  inserted: number;
};

export type IntegrationDto = {
  kind: "text-generation" | "email";
  provider: string;
  /** The secret is never returned; only its last four characters */
  api_key_masked: string;
  /** The stored secret cannot be decrypted (the encryption key changed): the integration is off until a new api_key is saved */
  needs_new_secret: boolean;
  default_model?: string | null;
  verified_domains?: Array<string>;
  created_at: string;
  updated_at: string;
};

export type IntegrationListDto = {
  items: Array<{
    kind: "text-generation" | "email";
    provider: string;
    /** The secret is never returned; only its last four characters */
    api_key_masked: string;
    /** The stored secret cannot be decrypted (the encryption key changed): the integration is off until a new api_key is saved */
    needs_new_secret: boolean;
    default_model?: string | null;
    verified_domains?: Array<string>;
    created_at: string;
    updated_at: string;
  }>;
};

export type LogDetailDto = {
  id: string;
  /** The path requested */
  endpoint: string;
  time: string;
  method: string;
  status: number;
  duration_ms: number;
  key_id: string | null;
  /** Error code of the answer, null on success */
  code: string | null;
  /** Served on the live address or the preview address */
  environment: "live" | "preview";
  /** What started the run: a request, a schedule, an MCP call */
  trigger: "http" | "schedule" | "mcp";
  /** The answer was a stream (Stream Text); its duration runs to the last byte */
  streamed: boolean;
  /** A cached route: hit (served from the response cache, the flow did not run) or miss (the flow ran); null for other routes */
  cache: "hit" | "miss" | null;
  /** The endpoint that answered, null when none matched */
  endpoint_id: string | null;
  /** Name of the API key used; null without a key or once the key is deleted */
  key_name: string | null;
  /** The raw query string without `?` (cut to 2 KiB) */
  query: string;
  /** The block that failed, or the Return Error block that answered */
  error_node_id: string | null;
  /** Error message of a 4xx/5xx answer, null on success */
  message: string | null;
  /** The request's headers (credentials and the key redacted, secret values masked), the first 4,096 characters of its body (masked) and the answer's size; null for runs without a request (schedules) and rows of older gateways */
  details: {
    /** In the order they came, at most 32 (values cut to 256 characters) */
    headers: Array<{
      /** Lower-cased */
      name: string;
      /** `[redacted]` for credentials and any header carrying the key */
      value: string;
    }>;
    body: string | null;
    body_bytes: number | null;
    body_truncated: boolean;
    response_bytes: number | null;
  } | null;
};

export type LoginDto = {
  email: string;
  password: string;
};

export type LogPageDto = {
  /** Newest first */
  items: Array<{
    id: string;
    /** The path requested */
    endpoint: string;
    time: string;
    method: string;
    status: number;
    duration_ms: number;
    key_id: string | null;
    /** Error code of the answer, null on success */
    code: string | null;
    /** Served on the live address or the preview address */
    environment: "live" | "preview";
    /** What started the run: a request, a schedule, an MCP call */
    trigger: "http" | "schedule" | "mcp";
    /** The answer was a stream (Stream Text); its duration runs to the last byte */
    streamed: boolean;
    /** A cached route: hit (served from the response cache, the flow did not run) or miss (the flow ran); null for other routes */
    cache: "hit" | "miss" | null;
  }>;
  /** Older entries (Next); null on the last page */
  next_cursor: string | null;
  /** Newer entries (Back); null on the first page */
  prev_cursor: string | null;
};

export type LogStatsDto = {
  /** Start of the range counted (to the minute) */
  from: string;
  /** End of the range counted (exclusive) */
  to: string;
  /** Bucket width in seconds */
  interval: number;
  totals: {
    count: number;
    /** Answers with status ≥ 400 */
    errors: number;
    p50_ms: number | null;
    p95_ms: number | null;
    p99_ms: number | null;
  };
  buckets: Array<{
    /** The bucket's start (buckets are aligned to multiples of the interval) */
    time: string;
    count: number;
    /** Answers with status ≥ 400 */
    errors: number;
    p50_ms: number | null;
    p95_ms: number | null;
    p99_ms: number | null;
  }>;
};

export type MeResponseDto = {
  user: {
    id: string;
    email: string;
    created_at: string;
  };
};

export type MessageResponseDto = {
  success: true;
  message: string;
};

export type ProjectDto = {
  id: string;
  name: string;
  subdomain: string;
  require_auth: boolean;
  /** Where the gateway serves this project */
  base_url: string;
  created_at: string;
  updated_at: string;
};

export type ProjectListDto = {
  items: Array<{
    id: string;
    name: string;
    subdomain: string;
    require_auth: boolean;
    /** Where the gateway serves this project */
    base_url: string;
    created_at: string;
    updated_at: string;
  }>;
};

export type PutEmailDto = {
  provider: "sendgrid";
  /** The provider secret; required the first time, omit it to keep the stored one */
  api_key?: string;
  /** Sender domains verified with SendGrid; Send Email blocks may only send From these */
  verified_domains?: Array<string>;
};

export type PutSecretDto = {
  /** The live value (1 B – 8 KiB of text); stored encrypted, never returned */
  value: string;
  /** Used on the preview address instead of `value`; null removes it, omitted keeps the stored one */
  preview_value?: string | null;
  /** What the secret is for; omitted keeps the stored one */
  description?: string | null;
};

export type PutTextGenerationDto = {
  provider: "anthropic";
  /** The provider secret; required the first time, omit it to keep the stored one */
  api_key?: string;
  /** Model used when a Generate Text block names none */
  default_model?: string | null;
};

export type RowDto = {
  id: string;
  created_at: string;
  updated_at: string;
};

export type RowPageDto = {
  items: Array<{
    id: string;
    created_at: string;
    updated_at: string;
    [key: string]: unknown;
  }>;
  /** Pass as `cursor` for the next page; null on the last */
  next_cursor: string | null;
};

export type RowValuesDto = {
  /** Column name → value */
  values: { [key: string]: unknown };
};

export type RunAcceptedDto = {
  success: true;
  message: string;
  job_id: string;
};

export type SaveEndpointDto = {
  name: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  auth?: "none" | "user" | "admin";
  query_params?: Array<{
    key: string;
    default?: string | null;
    type?: "string" | "number" | "integer" | "boolean" | "enum";
    required?: boolean;
    values?: Array<string>;
  }>;
  body_schema?: { [key: string]: unknown } | null;
  signature?: {
    scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
    secret: string;
    header?: string;
    tolerance_s?: number;
  } | null;
  cache?: {
    ttl_s: number;
    vary_query?: boolean;
    vary_headers?: Array<string>;
    per_key?: boolean;
  } | null;
  mcp?: {
    enabled: boolean;
    description?: string;
  } | null;
  flow?: {
    nodes: Array<{
      id: string;
      type: string;
      position: {
        x: number;
        y: number;
      };
      config?: { [key: string]: SaveEndpointDto__schema0 };
    }>;
    edges: Array<{
      id: string;
      source: string;
      target: string;
      sourceHandle?: string | null;
    }>;
  };
};

export type SaveEndpointDto__schema0 = string | number | boolean | Array<SaveEndpointDto__schema0> | { [key: string]: SaveEndpointDto__schema0 } | null;

export type SaveFunctionDto = {
  /** Unique in the project: Call Function's list shows it */
  name: string;
  description?: string;
  /** Typed inputs, read in the flow as {input.NAME} */
  inputs?: Array<{
    name: string;
    type?: "string" | "number" | "boolean" | "object" | "list" | "any";
    required?: boolean;
    default?: SaveFunctionDto__schema0;
  }>;
  flow?: {
    nodes: Array<{
      id: string;
      type: string;
      position: {
        x: number;
        y: number;
      };
      config?: { [key: string]: SaveFunctionDto__schema1 };
    }>;
    edges: Array<{
      id: string;
      source: string;
      target: string;
      sourceHandle?: string | null;
    }>;
  };
};

export type SaveFunctionDto__schema0 = string | number | boolean | Array<SaveFunctionDto__schema0> | { [key: string]: SaveFunctionDto__schema0 } | null;

export type SaveFunctionDto__schema1 = string | number | boolean | Array<SaveFunctionDto__schema1> | { [key: string]: SaveFunctionDto__schema1 } | null;

export type SaveScheduleDto = {
  /** Unique in the project; the Logs show runs under it */
  name: string;
  /** Five fields (minute resolution), or @hourly / @daily / @weekly / @monthly / @yearly */
  cron: string;
  /** IANA time zone name */
  timezone?: string;
  /** Runs while deployed and enabled */
  enabled?: boolean;
  flow?: {
    nodes: Array<{
      id: string;
      type: string;
      position: {
        x: number;
        y: number;
      };
      config?: { [key: string]: SaveScheduleDto__schema0 };
    }>;
    edges: Array<{
      id: string;
      source: string;
      target: string;
      sourceHandle?: string | null;
    }>;
  };
};

export type SaveScheduleDto__schema0 = string | number | boolean | Array<SaveScheduleDto__schema0> | { [key: string]: SaveScheduleDto__schema0 } | null;

export type ScheduleDto = {
  name: string;
  cron: string;
  timezone: string;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  enabled: boolean;
  status: "draft" | "live";
  live_version: number | null;
  has_undeployed_changes: boolean;
  /** The next five runs of the live version (ISO 8601); empty when it does not run */
  next_runs: Array<string>;
  last_run: {
    time: string;
    status: string;
    duration_ms: number;
  } | null;
  created_at: string;
  updated_at: string;
};

export type ScheduleListDto = {
  items: Array<{
    name: string;
    cron: string;
    timezone: string;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    id: string;
    project_id: string;
    enabled: boolean;
    status: "draft" | "live";
    live_version: number | null;
    has_undeployed_changes: boolean;
    /** The next five runs of the live version (ISO 8601); empty when it does not run */
    next_runs: Array<string>;
    last_run: {
      time: string;
      status: string;
      duration_ms: number;
    } | null;
    created_at: string;
    updated_at: string;
  }>;
};

export type ScheduleVersionDto = {
  name: string;
  cron: string;
  timezone: string;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  version: number;
  live: boolean;
  created_at: string;
};

export type ScheduleVersionListDto = {
  items: Array<{
    name: string;
    cron: string;
    timezone: string;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    version: number;
    live: boolean;
    created_at: string;
  }>;
};

export type ScheduleWithDiagnosticsDto = {
  name: string;
  cron: string;
  timezone: string;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  id: string;
  project_id: string;
  enabled: boolean;
  status: "draft" | "live";
  live_version: number | null;
  has_undeployed_changes: boolean;
  /** The next five runs of the live version (ISO 8601); empty when it does not run */
  next_runs: Array<string>;
  last_run: {
    time: string;
    status: string;
    duration_ms: number;
  } | null;
  created_at: string;
  updated_at: string;
  diagnostics: Array<{
    severity: "error" | "warning";
    code: string;
    node_id: string | null;
    field: string | null;
    message: string;
    /** Where in a code field (Run Code's `code`) the problem is: 1-based line */
    line?: number;
    /** 1-based column, with `line` */
    column?: number;
  }>;
};

export type SecretDto = {
  name: string;
  description: string | null;
  has_preview_value: boolean;
  /** Live endpoints whose flow reads {secrets.NAME} */
  used_by: Array<{
    endpoint_id: string;
    name: string;
  }>;
  created_at: string;
  updated_at: string;
};

export type SecretListDto = {
  items: Array<{
    name: string;
    description: string | null;
    has_preview_value: boolean;
    /** Live endpoints whose flow reads {secrets.NAME} */
    used_by: Array<{
      endpoint_id: string;
      name: string;
    }>;
    created_at: string;
    updated_at: string;
  }>;
};

export type SessionResponseDto = {
  user: {
    id: string;
    email: string;
    created_at: string;
  };
  /** Opaque session token; send it as `Authorization: Bearer <token>` */
  token: string;
};

export type SignupDto = {
  email: string;
  password: string;
};

export type SubdomainAvailabilityDto = {
  available: boolean;
  /** Why the name cannot be used; null when it can */
  reason: "taken" | "reserved" | "invalid" | null;
  /** What is wrong with the name, in words; null when it can be used */
  message: string | null;
};

export type TableDto = {
  id: string;
  name: string;
  columns: Array<{
    name: string;
    type: "text" | "number" | "boolean" | "datetime" | "json";
    required: boolean;
    unique: boolean;
    /** A lookup index on the column (a unique column has one already) */
    indexed: boolean;
  }>;
  row_count: number;
  created_at: string;
  updated_at: string;
};

export type TableListDto = {
  items: Array<{
    id: string;
    name: string;
    columns: Array<{
      name: string;
      type: "text" | "number" | "boolean" | "datetime" | "json";
      required: boolean;
      unique: boolean;
      /** A lookup index on the column (a unique column has one already) */
      indexed: boolean;
    }>;
    row_count: number;
    created_at: string;
    updated_at: string;
  }>;
};

export type TestRunInputDto = {
  /** The editor's current flow; default: the saved draft */
  flow?: {
    nodes: Array<{
      id: string;
      type: string;
      position: {
        x: number;
        y: number;
      };
      config?: { [key: string]: TestRunInputDto__schema0 };
    }>;
    edges: Array<{
      id: string;
      source: string;
      target: string;
      sourceHandle?: string | null;
    }>;
  };
  /** Base settings replacing the saved ones field by field */
  settings?: {
    name?: string;
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path?: string;
    auth?: "none" | "user" | "admin";
    query_params?: Array<{
      key: string;
      default?: string | null;
      type?: "string" | "number" | "integer" | "boolean" | "enum";
      required?: boolean;
      values?: Array<string>;
    }>;
  };
  request?: {
    /** Default: the endpoint's method */
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    /** As a caller would send it (`/orders` or `/api/orders`); default: the endpoint's path */
    path?: string;
    query?: { [key: string]: string };
    headers?: { [key: string]: string };
    /** JSON body (POST, PUT, PATCH) */
    body?: { [key: string]: unknown };
  };
  /** Queue Send Email messages for real (default: shown in the trace only) */
  send_email?: boolean;
};

export type TestRunInputDto__schema0 = string | number | boolean | Array<TestRunInputDto__schema0> | { [key: string]: TestRunInputDto__schema0 } | null;

export type TestRunResultDto = {
  response: {
    status: number;
    headers: { [key: string]: string };
    body: unknown;
  };
  duration_ms: number;
  diagnostics: Array<{
    severity: "error" | "warning";
    code: string;
    node_id: string | null;
    field: string | null;
    message: string;
    /** Where in a code field (Run Code's `code`) the problem is: 1-based line */
    line?: number;
    /** 1-based column, with `line` */
    column?: number;
  }>;
  /** Executed nodes in order, the start node excluded */
  trace: Array<TestRunResultDto_Output__schema0>;
};

export type TestRunResultDto_Output__schema0 = {
  node_id: string;
  type: string;
  label: string;
  status: "ok" | "skipped" | "error";
  skipped_reason?: "integration_not_configured" | "dry_run";
  branch?: "true" | "false";
  /** What the block stored; over 16 KiB of JSON: its first 16 KiB as a string */
  output?: { [key: string]: unknown };
  truncated?: boolean;
  duration_ms: number;
  error?: {
    code: string;
    message: string;
    status?: number;
  };
  /** The block failed and the flow went on by its error handle */
  error_path?: boolean;
  /** The block failed and the flow went on without an error handle: its output holds the reason (`{NAME.error}`) */
  error_in_result?: boolean;
  /** Inside a loop body: the For Each running it (the innermost) */
  loop_id?: string;
  /** Inside a loop body: the element's index, from 0 */
  iteration?: number;
  /** On a For Each: iterations past the first 20, not traced */
  iterations_not_shown?: number;
  /** Each try of a block with retry: its outcome and the wait after it */
  attempts?: Array<{
    attempt: number;
    outcome: string;
    wait_ms: number;
  }>;
  /** Run Code's console output, in order (at most 100 lines and 16 KiB, then one line saying what was cut) */
  console?: Array<{
    level: "log" | "info" | "warn" | "error";
    text: string;
  }>;
  /** A Call Function's entry: the blocks its function ran, in order */
  calls?: Array<TestRunResultDto_Output__schema0>;
};

export type UpdateProjectDto = {
  name?: string;
  /** A new subdomain meets the rules of a new project */
  subdomain?: string;
  require_auth?: boolean;
};

export type UpdateTableDto = {
  name?: string;
  /** The full new column list: a column keeps its data when its name (or `renamed_from`) names an existing one */
  columns?: Array<{
    name: string;
    type: "text" | "number" | "boolean" | "datetime" | "json";
    required?: boolean;
    unique?: boolean;
    /** A lookup index on the column (a unique column has one already) */
    indexed?: boolean;
    /** The column whose data this one keeps, under a new name */
    renamed_from?: string;
  }>;
};

export type VersionDto = {
  name: string;
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  auth: "none" | "user" | "admin";
  query_params: Array<{
    key: string;
    default: string | null;
    type?: "string" | "number" | "integer" | "boolean" | "enum";
    required?: boolean;
    values?: Array<string>;
  }>;
  /** JSON Schema subset the body is checked against before the flow runs */
  body_schema: { [key: string]: unknown } | null;
  /** Webhook signature checked on the raw body before anything else */
  signature: {
    scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
    secret: string;
    header?: string;
    tolerance_s: number;
  } | null;
  /** GET answers cached in Redis, shared by every gateway */
  cache: {
    ttl_s: number;
    vary_query: boolean;
    vary_headers: Array<string>;
    per_key: boolean;
  } | null;
  /** A tool of the project's MCP server at /_mcp */
  mcp: {
    enabled: boolean;
    description?: string;
  } | null;
  flow: {
    nodes: Array<unknown>;
    edges: Array<unknown>;
    [key: string]: unknown;
  };
  version: number;
  live: boolean;
  created_at: string;
};

export type VersionListDto = {
  items: Array<{
    name: string;
    method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path: string;
    auth: "none" | "user" | "admin";
    query_params: Array<{
      key: string;
      default: string | null;
      type?: "string" | "number" | "integer" | "boolean" | "enum";
      required?: boolean;
      values?: Array<string>;
    }>;
    /** JSON Schema subset the body is checked against before the flow runs */
    body_schema: { [key: string]: unknown } | null;
    /** Webhook signature checked on the raw body before anything else */
    signature: {
      scheme: "stripe" | "github" | "slack" | "standard_webhooks" | "hmac_sha256";
      secret: string;
      header?: string;
      tolerance_s: number;
    } | null;
    /** GET answers cached in Redis, shared by every gateway */
    cache: {
      ttl_s: number;
      vary_query: boolean;
      vary_headers: Array<string>;
      per_key: boolean;
    } | null;
    /** A tool of the project's MCP server at /_mcp */
    mcp: {
      enabled: boolean;
      description?: string;
    } | null;
    flow: {
      nodes: Array<unknown>;
      edges: Array<unknown>;
      [key: string]: unknown;
    };
    version: number;
    live: boolean;
    created_at: string;
  }>;
};

export interface Operations {
  "GET /v1/assistant": {
    params: { };
    query: never;
    body: never;
    response: AssistantStatusDto;
  };
  "POST /v1/auth/login": {
    params: { };
    query: never;
    body: LoginDto;
    response: SessionResponseDto;
  };
  "POST /v1/auth/logout": {
    params: { };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "POST /v1/auth/logout-all": {
    params: { };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "GET /v1/auth/me": {
    params: { };
    query: never;
    body: never;
    response: MeResponseDto;
  };
  "POST /v1/auth/password": {
    params: { };
    query: never;
    body: ChangePasswordDto;
    response: MessageResponseDto;
  };
  "POST /v1/auth/signup": {
    params: { };
    query: never;
    body: SignupDto;
    response: SessionResponseDto;
  };
  "GET /v1/projects": {
    params: { };
    query: never;
    body: never;
    response: ProjectListDto;
  };
  "POST /v1/projects": {
    params: { };
    query: never;
    body: CreateProjectDto;
    response: ProjectDto;
  };
  "GET /v1/projects/{projectId}": {
    params: { projectId: string };
    query: never;
    body: never;
    response: ProjectDto;
  };
  "PATCH /v1/projects/{projectId}": {
    params: { projectId: string };
    query: never;
    body: UpdateProjectDto;
    response: ProjectDto;
  };
  "DELETE /v1/projects/{projectId}": {
    params: { projectId: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "GET /v1/projects/{projectId}/api-keys": {
    params: { projectId: string };
    query: never;
    body: never;
    response: ApiKeyListDto;
  };
  "POST /v1/projects/{projectId}/api-keys": {
    params: { projectId: string };
    query: never;
    body: CreateApiKeyDto;
    response: CreatedApiKeyDto;
  };
  "DELETE /v1/projects/{projectId}/api-keys/{keyId}": {
    params: { projectId: string; keyId: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "POST /v1/projects/{projectId}/assistant/drafts": {
    params: { projectId: string };
    query: never;
    body: DraftRequestDto;
    response: DraftDto;
  };
  "GET /v1/projects/{projectId}/endpoints": {
    params: { projectId: string };
    query: never;
    body: never;
    response: EndpointListDto;
  };
  "POST /v1/projects/{projectId}/endpoints": {
    params: { projectId: string };
    query: never;
    body: SaveEndpointDto;
    response: EndpointWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/endpoints/{endpointId}": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: EndpointDto;
  };
  "PUT /v1/projects/{projectId}/endpoints/{endpointId}": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: SaveEndpointDto;
    response: EndpointWithDiagnosticsDto;
  };
  "DELETE /v1/projects/{projectId}/endpoints/{endpointId}": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "POST /v1/projects/{projectId}/endpoints/{endpointId}/deploy": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: EndpointWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/endpoints/{endpointId}/export": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: EndpointExportFileDto;
  };
  "POST /v1/projects/{projectId}/endpoints/{endpointId}/test-runs": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: TestRunInputDto;
    response: TestRunResultDto;
  };
  "POST /v1/projects/{projectId}/endpoints/{endpointId}/undeploy": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: EndpointDto;
  };
  "GET /v1/projects/{projectId}/endpoints/{endpointId}/versions": {
    params: { projectId: string; endpointId: string };
    query: never;
    body: never;
    response: VersionListDto;
  };
  "GET /v1/projects/{projectId}/endpoints/{endpointId}/versions/{version}": {
    params: { projectId: string; endpointId: string; version: string };
    query: never;
    body: never;
    response: VersionDto;
  };
  "POST /v1/projects/{projectId}/endpoints/{endpointId}/versions/{version}/deploy": {
    params: { projectId: string; endpointId: string; version: string };
    query: never;
    body: never;
    response: EndpointDto;
  };
  "POST /v1/projects/{projectId}/endpoints/import": {
    params: { projectId: string };
    query: never;
    body: EndpointExportDto;
    response: EndpointWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/functions": {
    params: { projectId: string };
    query: never;
    body: never;
    response: FunctionListDto;
  };
  "POST /v1/projects/{projectId}/functions": {
    params: { projectId: string };
    query: never;
    body: SaveFunctionDto;
    response: FunctionWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/functions/{functionId}": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: FunctionDto;
  };
  "PUT /v1/projects/{projectId}/functions/{functionId}": {
    params: { projectId: string; functionId: string };
    query: never;
    body: SaveFunctionDto;
    response: FunctionWithDiagnosticsDto;
  };
  "DELETE /v1/projects/{projectId}/functions/{functionId}": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "POST /v1/projects/{projectId}/functions/{functionId}/deploy": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: FunctionWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/functions/{functionId}/export": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: FunctionExportFileDto;
  };
  "POST /v1/projects/{projectId}/functions/{functionId}/test-runs": {
    params: { projectId: string; functionId: string };
    query: never;
    body: FunctionTestRunInputDto;
    response: TestRunResultDto;
  };
  "POST /v1/projects/{projectId}/functions/{functionId}/undeploy": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: FunctionDto;
  };
  "GET /v1/projects/{projectId}/functions/{functionId}/versions": {
    params: { projectId: string; functionId: string };
    query: never;
    body: never;
    response: FunctionVersionListDto;
  };
  "GET /v1/projects/{projectId}/functions/{functionId}/versions/{version}": {
    params: { projectId: string; functionId: string; version: string };
    query: never;
    body: never;
    response: FunctionVersionDto;
  };
  "POST /v1/projects/{projectId}/functions/{functionId}/versions/{version}/deploy": {
    params: { projectId: string; functionId: string; version: string };
    query: never;
    body: never;
    response: FunctionDto;
  };
  "POST /v1/projects/{projectId}/functions/import": {
    params: { projectId: string };
    query: never;
    body: FunctionExportDto;
    response: FunctionWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/integrations": {
    params: { projectId: string };
    query: never;
    body: never;
    response: IntegrationListDto;
  };
  "GET /v1/projects/{projectId}/integrations/{kind}": {
    params: { projectId: string; kind: string };
    query: never;
    body: never;
    response: IntegrationDto;
  };
  "DELETE /v1/projects/{projectId}/integrations/{kind}": {
    params: { projectId: string; kind: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "PUT /v1/projects/{projectId}/integrations/email": {
    params: { projectId: string };
    query: never;
    body: PutEmailDto;
    response: IntegrationDto;
  };
  "PUT /v1/projects/{projectId}/integrations/text-generation": {
    params: { projectId: string };
    query: never;
    body: PutTextGenerationDto;
    response: IntegrationDto;
  };
  "GET /v1/projects/{projectId}/logs": {
    params: { projectId: string };
    query: { environment?: "live" | "preview"; trigger?: "http" | "schedule" | "mcp"; cache?: "hit" | "miss"; endpoint?: string; status?: string; method?: string; from?: string; to?: string; limit?: number; cursor?: string };
    body: never;
    response: LogPageDto;
  };
  "GET /v1/projects/{projectId}/logs/{logId}": {
    params: { projectId: string; logId: string };
    query: { time?: string };
    body: never;
    response: LogDetailDto;
  };
  "GET /v1/projects/{projectId}/logs/stats": {
    params: { projectId: string };
    query: { environment?: "live" | "preview"; from?: string; to?: string; interval?: number; endpoint?: string; status?: string; method?: string };
    body: never;
    response: LogStatsDto;
  };
  "GET /v1/projects/{projectId}/openapi.json": {
    params: { projectId: string };
    query: never;
    body: never;
    response: { [key: string]: unknown };
  };
  "GET /v1/projects/{projectId}/schedules": {
    params: { projectId: string };
    query: never;
    body: never;
    response: ScheduleListDto;
  };
  "POST /v1/projects/{projectId}/schedules": {
    params: { projectId: string };
    query: never;
    body: SaveScheduleDto;
    response: ScheduleWithDiagnosticsDto;
  };
  "GET /v1/projects/{projectId}/schedules/{scheduleId}": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: ScheduleDto;
  };
  "PUT /v1/projects/{projectId}/schedules/{scheduleId}": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: SaveScheduleDto;
    response: ScheduleWithDiagnosticsDto;
  };
  "DELETE /v1/projects/{projectId}/schedules/{scheduleId}": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: MessageResponseDto;
  };
  "POST /v1/projects/{projectId}/schedules/{scheduleId}/deploy": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: ScheduleWithDiagnosticsDto;
  };
  "POST /v1/projects/{projectId}/schedules/{scheduleId}/run": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: RunAcceptedDto;
  };
  "POST /v1/projects/{projectId}/schedules/{scheduleId}/undeploy": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: ScheduleDto;
  };
  "GET /v1/projects/{projectId}/schedules/{scheduleId}/versions": {
    params: { projectId: string; scheduleId: string };
    query: never;
    body: never;
    response: ScheduleVersionListDto;
  };
  "GET /v1/projects/{projectId}/schedules/{scheduleId}/versions/{version}": {
    params: { projectId: string; scheduleId: string; version: string };
    query: never;
    body: never;
    response: ScheduleVersionDto;
  };
  "POST /v1/projects/{projectId}/schedules/{scheduleId}/versions/{version}/deploy": {
    params: { projectId: string; scheduleId: string; version: string };
    query: never;
    body: never;
    response: ScheduleDto;
  };
  "GET /v1/projects/{projectId}/secrets": {
    params: { projectId: string };
    query: never;
    body: never;
    response: SecretListDto;
  };
  "PUT /v1/projects/{projectId}/secrets/{name}": {
    params: { projectId: string; name: string };
    query: never;
    body: PutSecretDto;
    response: SecretDto;
  };
  "DELETE /v1/projects/{projectId}/secrets/{name}": {
    params: { projectId: string; name: string };
    query: { force?: "true" | "false" };
    body: never;
    response: unknown;
  };
  "GET /v1/projects/{projectId}/tables": {
    params: { projectId: string };
    query: never;
    body: never;
    response: TableListDto;
  };
  "POST /v1/projects/{projectId}/tables": {
    params: { projectId: string };
    query: never;
    body: CreateTableDto;
    response: TableDto;
  };
  "GET /v1/projects/{projectId}/tables/{tableId}": {
    params: { projectId: string; tableId: string };
    query: never;
    body: never;
    response: TableDto;
  };
  "PATCH /v1/projects/{projectId}/tables/{tableId}": {
    params: { projectId: string; tableId: string };
    query: never;
    body: UpdateTableDto;
    response: TableDto;
  };
  "DELETE /v1/projects/{projectId}/tables/{tableId}": {
    params: { projectId: string; tableId: string };
    query: { force?: "true" | "false" };
    body: never;
    response: unknown;
  };
  "GET /v1/projects/{projectId}/tables/{tableId}/export": {
    params: { projectId: string; tableId: string };
    query: never;
    body: never;
    response: unknown;
  };
  "POST /v1/projects/{projectId}/tables/{tableId}/import": {
    params: { projectId: string; tableId: string };
    query: never;
    body: never;
    response: ImportResultDto;
  };
  "GET /v1/projects/{projectId}/tables/{tableId}/rows": {
    params: { projectId: string; tableId: string };
    query: { filter?: string; sort?: string; limit?: number; cursor?: string };
    body: never;
    response: RowPageDto;
  };
  "POST /v1/projects/{projectId}/tables/{tableId}/rows": {
    params: { projectId: string; tableId: string };
    query: never;
    body: RowValuesDto;
    response: RowDto;
  };
  "GET /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}": {
    params: { projectId: string; tableId: string; rowId: string };
    query: never;
    body: never;
    response: RowDto;
  };
  "PATCH /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}": {
    params: { projectId: string; tableId: string; rowId: string };
    query: never;
    body: RowValuesDto;
    response: RowDto;
  };
  "DELETE /v1/projects/{projectId}/tables/{tableId}/rows/{rowId}": {
    params: { projectId: string; tableId: string; rowId: string };
    query: never;
    body: never;
    response: unknown;
  };
  "GET /v1/subdomains/{name}": {
    params: { name: string };
    query: never;
    body: never;
    response: SubdomainAvailabilityDto;
  };
}
