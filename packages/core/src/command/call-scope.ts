import { AsyncLocalStorage } from 'node:async_hooks';
import { injectable } from 'inversify';
import type { Authentication } from '../authorization/authorization.js';
import type { CommandContext } from './command-context.js';

interface Scope {
  authentication: Authentication | null;
  command: CommandContext | undefined;
}

/**
 * What follows one engine's async call chain: who is calling (set by `runAs` for a REST request or a
 * host's call) and the command running (a delegate's engine calls join its transaction). Both are
 * carried by one AsyncLocalStorage, entered only when there is something to carry: on Node 20, from
 * the first time one is entered, every promise the process creates pays for async hooks (about a
 * fifth of the engine's JavaScript time per completed external task). So a call without an
 * authentication outside any scope runs as it is, and a command enters a scope only when host code
 * that may call the engine can run in it (see runCommand). Nothing leaks between requests.
 */
@injectable()
export class CallScope {
  private readonly storage = new AsyncLocalStorage<Scope>();

  runAs<T>(authentication: Authentication | null, work: () => T): T {
    // Outside any scope, no authentication is what every call chain already sees.
    if (authentication === null && this.storage.getStore() === undefined) return work();
    return this.storage.run({ authentication, command: this.command() }, work);
  }

  authentication(): Authentication | null {
    return this.storage.getStore()?.authentication ?? null;
  }

  /**
   * Runs a command's work with the command as the running one of its call chain, so that engine
   * calls made inside it join it. Only code the host registered (classes and beans) can make such
   * calls, so without any (`hostCode` false) the work runs as it is: the engine's own code hands the
   * command on as an argument.
   */
  runCommand<T>(command: CommandContext, hostCode: boolean, work: () => T): T {
    if (!hostCode) return work();
    return this.storage.run({ authentication: this.authentication(), command }, work);
  }

  /** The command running in this call chain, if any. */
  command(): CommandContext | undefined {
    return this.storage.getStore()?.command;
  }
}
