/** The `code` Return Error answers with when its config names none: derived from the status. */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  402: 'payment_required',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  406: 'not_acceptable',
  408: 'request_timeout',
  409: 'conflict',
  410: 'gone',
  412: 'precondition_failed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable_entity',
  423: 'locked',
  428: 'precondition_required',
  429: 'too_many_requests',
  500: 'internal_error',
  501: 'not_implemented',
  502: 'bad_gateway',
  503: 'unavailable',
  504: 'gateway_timeout',
};

export const errorCodeForStatus = (status: number): string =>
  CODE_BY_STATUS[status] ?? (status < 500 ? 'client_error' : 'server_error');
