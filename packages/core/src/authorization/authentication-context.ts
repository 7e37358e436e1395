import { AsyncLocalStorage } from 'node:async_hooks';
import { injectable } from 'inversify';
import type { Authentication } from './authorization.js';

/**
 * Who is calling, for the code running inside `runAs` (a REST request, a host's call): carried by
 * AsyncLocalStorage, so it follows the async call chain and never leaks between requests.
 */
@injectable()
export class AuthenticationContext {
  private readonly storage = new AsyncLocalStorage<Authentication | null>();

  runAs<T>(authentication: Authentication | null, work: () => T): T {
    return this.storage.run(authentication, work);
  }

  current(): Authentication | null {
    return this.storage.getStore() ?? null;
  }
}
