/** The control plane could not be reached or gave no usable answer: the gateway says 503. */
export class ControlPlaneUnavailableError extends Error {
  override name = 'ControlPlaneUnavailableError';
}

export interface RelayedAnswer {
  status: number;
  /** The control plane's JSON body, byte for byte. */
  body: string;
  /** `code` of an error body, for the request log. */
  code: string | null;
}

/**
 * The control plane's internal API (service token), used only by the admin key endpoints —
 * never on the hot path of user endpoints.
 */
export class ControlPlaneClient {
  constructor(
    private readonly baseUrl: string,
    private readonly serviceToken: string,
    private readonly timeoutMs = 10_000,
  ) {}

  createApiKey(projectId: string, body: string): Promise<RelayedAnswer> {
    return this.call('POST', `/internal/projects/${encodeURIComponent(projectId)}/api-keys`, body);
  }

  deleteApiKey(projectId: string, keyId: string): Promise<RelayedAnswer> {
    return this.call('DELETE', `/internal/projects/${encodeURIComponent(projectId)}/api-keys/${encodeURIComponent(keyId)}`);
  }

  private async call(method: string, path: string, body?: string): Promise<RelayedAnswer> {
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${this.serviceToken}`,
          accept: 'application/json',
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new ControlPlaneUnavailableError(`control plane unreachable: ${(error as Error).message}`);
    }
    if (response.status === 401 || response.status === 403) {
      // Our service token was refused: a configuration problem, not the caller's.
      throw new ControlPlaneUnavailableError(`control plane refused the service token (${response.status}); check FLOWGATE_SERVICE_TOKEN`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ControlPlaneUnavailableError(`control plane answered ${response.status} without JSON`);
    }
    const code =
      response.status >= 400 && parsed !== null && typeof parsed === 'object' && typeof (parsed as { code?: unknown }).code === 'string'
        ? (parsed as { code: string }).code
        : null;
    if (response.status === 404 && code === 'not_found') {
      // The internal routes answer project_not_found / api_key_not_found; a plain "no such route"
      // means this URL is not the internal listener (the public port answers /internal with 404).
      throw new ControlPlaneUnavailableError(
        'the control plane has no internal API at CONTROL_PLANE_INTERNAL_URL; point it at CONTROL_PLANE_INTERNAL_PORT (3003), not the public port',
      );
    }
    return { status: response.status, body: text, code };
  }
}
