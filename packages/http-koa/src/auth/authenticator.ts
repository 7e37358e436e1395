import type { Authentication, ProcessEngine } from '@trellis/core';

/** What an authenticator sees of a request. */
export interface AuthenticationRequest {
  method: string;
  /** The path below the REST base path, e.g. `/deployment`. */
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Decides who sends a request: an Authentication, or null to answer 401. A host that trusts a
 * token its gateway checked plugs in its own (e.g. reading a JWT's subject and groups).
 */
export type Authenticator = (request: AuthenticationRequest, engine: ProcessEngine) => Promise<Authentication | null>;

/** Camunda's HttpBasicAuthenticationProvider: `Authorization: Basic base64(user:password)`, split at the first colon. */
export const basicAuthenticator: Authenticator = async (request, engine) => {
  const header = request.headers.authorization;
  const value = Array.isArray(header) ? header[0] : header;
  if (!value?.startsWith('Basic ')) return null;
  const decoded = Buffer.from(value.slice('Basic '.length).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return engine.identity.authenticate(decoded.slice(0, colon), decoded.slice(colon + 1));
};
