import type { Logger } from '@flowgate/platform';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { randomBytes } from 'node:crypto';
import http, { type IncomingMessage } from 'node:http';
import { clientAddress } from '../auth/key-failures';
import type { LoadedProject } from '../config-cache/loaded-project';
import { internalError, sendError } from '../http/errors';
import type { GatewayResponse } from '../http/gateway-response';
import type { OpenApiRoute } from '../http/openapi-route';
import { queryOf, toolsOf, type McpTool } from './mcp-tools';

export const MCP_PATH = '/_mcp';
/**
 * The gateway's own calls of an endpoint for an MCP client go to `/_mcp-call/TOKEN/PATH`
 * (TOKEN: this process's secret), so that they are logged with `trigger: "mcp"` and a
 * normal request pays nothing to be told apart (endpoint paths never start with `_`).
 */
const MCP_CALL_PREFIX = '/_mcp-call/';
/** On those calls: the MCP client's address, taken as the caller's only on a path with the token. */
export const MCP_CLIENT_HEADER = 'x-flowgate-mcp-client';
const SERVER_INFO = { name: 'flowgate', version: '1.0.0' };
/** Bytes of an endpoint's answer relayed to the client at most (a tool result goes into a model's context). */
const MAX_ANSWER_BYTES = 1024 * 1024;

/** The parts of the official SDK this route uses. */
interface McpSdk {
  Server: typeof import('@modelcontextprotocol/sdk/server/index.js').Server;
  StreamableHTTPServerTransport: typeof import('@modelcontextprotocol/sdk/server/streamableHttp.js').StreamableHTTPServerTransport;
  CallToolRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').CallToolRequestSchema;
  ListToolsRequestSchema: typeof import('@modelcontextprotocol/sdk/types.js').ListToolsRequestSchema;
}

let sdk: McpSdk | null = null;

/**
 * The SDK, loaded on the first MCP request: it takes ~25 MB of a gateway's memory, which a
 * gateway whose projects no agent calls never pays (`npm run bench -- gateway`, peak RSS).
 */
function mcpSdk(): McpSdk {
  sdk ??= {
    ...(require('@modelcontextprotocol/sdk/server/index.js') as Pick<McpSdk, 'Server'>),
    ...(require('@modelcontextprotocol/sdk/server/streamableHttp.js') as Pick<McpSdk, 'StreamableHTTPServerTransport'>),
    ...(require('@modelcontextprotocol/sdk/types.js') as Pick<McpSdk, 'CallToolRequestSchema' | 'ListToolsRequestSchema'>),
  };
  return sdk;
}

/** Where this gateway listens: tool calls are requests to itself, so they pass every check an HTTP caller's would. */
export interface SelfAddress {
  host: string;
  port: number;
}

/**
 * Every project is an MCP server at `/_mcp` (and on its preview address): the Streamable HTTP
 * transport, stateless (a server and transport per POST, JSON answers, no session), with the
 * official SDK. `tools/list` reads the project's OpenAPI document; `tools/call` sends the
 * endpoint a request with the client's `Authorization`, so the key check, the rate limit, the
 * inbound checks and the log row are those of any HTTP request.
 */
export class McpRoute {
  readonly callToken = randomBytes(18).toString('base64url');
  private self: SelfAddress | null = null;
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

  constructor(
    private readonly openApi: OpenApiRoute,
    private readonly logger: Logger,
    /** GATEWAY_TRUST_PROXY: how the client's address is read (auth/key-failures.ts). */
    private readonly trustProxy: boolean,
  ) {}

  /** The endpoint path of one of this gateway's own MCP calls; undefined for any other path, null for a forged one. */
  calledPath(path: string): string | null | undefined {
    if (!path.startsWith(MCP_CALL_PREFIX)) return undefined;
    const rest = path.slice(MCP_CALL_PREFIX.length);
    return rest.startsWith(`${this.callToken}/`) ? rest.slice(this.callToken.length) : null;
  }

  listeningOn(self: SelfAddress): void {
    this.self = self;
  }

  close(): void {
    this.agent.destroy();
  }

  handle(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): void {
    if (req.method !== 'POST') {
      // Stateless: no stream to open (GET) and no session to end (DELETE).
      return sendError(res, 'method_not_allowed', `${MCP_PATH} accepts POST (MCP Streamable HTTP, stateless)`, { allow: 'POST' });
    }
    this.serve(req, res, project).catch((error: unknown) => internalError(res, this.logger, error));
  }

  private async serve(req: IncomingMessage, res: GatewayResponse, project: LoadedProject): Promise<void> {
    // As for the project's OpenAPI document: any key of the project under Require Authentication and on the preview address.
    if (project.requireAuth && !(await this.openApi.keyAccepted(req, res, project.id))) return;
    const tools = (): Promise<McpTool[]> => this.openApi.derivedFrom(project, res.preview, toolsOf);
    const { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = mcpSdk();
    const server = new Server(SERVER_INFO, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: (await tools()).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = (await tools()).find((candidate) => candidate.name === request.params.name);
      if (tool === undefined) return toolError({ success: false, code: 'not_found', message: `No tool named ${request.params.name}` });
      return this.call(tool, (request.params.arguments ?? {}) as Record<string, unknown>, req);
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  /** The endpoint, called as an HTTP caller would call it, by this gateway. */
  private call(tool: McpTool, args: Record<string, unknown>, from: IncomingMessage): Promise<CallToolResult> {
    const self = this.self;
    if (self === null) return Promise.resolve(toolError({ success: false, code: 'unavailable', message: 'The gateway is not listening yet' }));
    const body = tool.hasBody ? JSON.stringify(args.body ?? {}) : null;
    const headers: http.OutgoingHttpHeaders = { host: from.headers.host, [MCP_CLIENT_HEADER]: clientAddress(from, this.trustProxy) };
    if (from.headers.authorization !== undefined) headers.authorization = from.headers.authorization;
    if (body !== null) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((resolve) => {
      const request = http.request({ host: self.host, port: self.port, method: tool.method, path: `${MCP_CALL_PREFIX}${this.callToken}${encodeURI(tool.path)}${queryOf(tool, args)}`, headers, agent: this.agent }, (answer) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(chunk);
        });
        answer.on('end', () => resolve(resultOf(answer.statusCode ?? 500, Buffer.concat(chunks).toString('utf8'), size > MAX_ANSWER_BYTES)));
      });
      request.on('error', (error) => resolve(toolError({ success: false, code: 'unavailable', message: `The endpoint could not be called: ${error.message}` })));
      request.end(body ?? undefined);
    });
  }
}

/** A 2xx JSON answer is the result (`structuredContent` and one text block); anything else is an error result with the error body. */
function resultOf(status: number, text: string, cut: boolean): CallToolResult {
  if (cut) return toolError({ success: false, code: 'value_too_large', message: `The endpoint's answer is over ${MAX_ANSWER_BYTES} bytes` });
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: relayed as text.
  }
  if (status >= 400) return toolError(value);
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { result: value };
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

const toolError = (body: unknown): CallToolResult => ({ content: [{ type: 'text', text: typeof body === 'string' ? body : JSON.stringify(body) }], isError: true });
