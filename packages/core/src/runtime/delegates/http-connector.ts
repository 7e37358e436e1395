/**
 * The connectors Camunda's connect plugin brings (camunda-connect's http-client and soap-http-client):
 * `http-connector` and `soap-http-connector`, as Trellis connectors — request parameters in, response
 * parameters out. Their parameter names, checks and messages are camunda-connect's.
 */

/** A connector: the request's parameters (a connector's input parameters) in, the response's parameters out. */
export type Connector = (request: Record<string, unknown>) => Record<string, unknown> | Promise<Record<string, unknown>>;

/** camunda-connect's ConnectorRequestException: the request could not be made, or (throw-http-error) it failed. */
export class ConnectorRequestException extends Error {
  override readonly name: string = 'ConnectorRequestException';
}

/** camunda-connect's ConnectorException: no connector of the id. */
export class ConnectorException extends Error {
  override readonly name: string = 'ConnectorException';
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE']);
/** Apache HttpClient's entity-enclosing requests: the only ones that send a payload. */
const WITH_PAYLOAD = new Set(['POST', 'PUT', 'PATCH']);

/** The text of a request parameter as Java's toString gives it; null for none. */
const textOf = (value: unknown) => (value === undefined || value === null ? null : String(value));
const mapOf = (value: unknown): Record<string, unknown> => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});

/**
 * An HTTP request (parameters `url`, `method`, `headers`, `payload`, `request-config`); the response
 * as `statusCode`, `headers` and, when it has a body, `response` (text). With the request-config option
 * `throw-http-error` true, a 4xx or 5xx status fails the request.
 */
export const httpConnector: Connector = async (request) => {
  const url = textOf(request.url)?.trim() ?? '';
  if (url === '') throw new ConnectorRequestException('HTCL-02005 Request url required.');
  const method = textOf(request.method);
  if (method === null || !METHODS.has(method)) throw new ConnectorRequestException(`HTCL-02006 Unknown or unsupported HTTP method '${method}'`);
  const headers = Object.fromEntries(Object.entries(mapOf(request.headers)).map(([name, value]) => [name, String(value)]));
  const payload = textOf(request.payload);
  const config = mapOf(request['request-config']);
  const timeouts = ['connection-timeout', 'socket-timeout'].map((option) => Number(config[option])).filter((ms) => Number.isFinite(ms) && ms > 0);
  let status: number;
  let responseHeaders: Record<string, string>;
  let body: string | null;
  try {
    const response = await fetch(url, {
      method,
      headers,
      body: payload !== null && WITH_PAYLOAD.has(method) ? Buffer.from(payload, 'utf8') : undefined,
      signal: timeouts.length > 0 ? AbortSignal.timeout(Math.max(...timeouts)) : undefined,
    });
    status = response.status;
    responseHeaders = Object.fromEntries(response.headers);
    body = response.body === null ? null : await response.text();
  } catch (error) {
    throw new ConnectorRequestException('HTCL-02007 Unable to execute HTTP request', { cause: error });
  }
  if (String(config['throw-http-error'] ?? 'false').toLowerCase() === 'true' && status >= 400 && status <= 599) {
    throw new ConnectorRequestException(`HTCL-02010 HTTP request failed with Status Code: ${status} , Response: ${body}`);
  }
  return body === null ? { statusCode: status, headers: responseHeaders } : { statusCode: status, headers: responseHeaders, response: body };
};

/** A SOAP request: always a POST, which must carry a payload (the envelope); otherwise as `http-connector`. */
export const soapHttpConnector: Connector = (request) => {
  if ((textOf(request.payload)?.trim() ?? '') === '') throw new ConnectorRequestException('SOAPC-01002 No payload set on request');
  return httpConnector({ ...request, method: 'POST' });
};

/** The connectors every engine has, by connector id. */
export const BUILT_IN_CONNECTORS: Readonly<Record<string, Connector>> = { 'http-connector': httpConnector, 'soap-http-connector': soapHttpConnector };
