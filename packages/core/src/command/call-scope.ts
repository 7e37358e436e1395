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
 * carried by one AsyncLocalStorage: while one is active, every promise the process creates pays for
 * each, so two would cost twice. Nothing leaks between requests.
 */
@injectable()
export class CallScope {
  private readonly storage = new AsyncLocalStorage<Scope>();

  runAs<T>(authentication: Authentication | null, work: () => T): T {
    return this.storage.run({ authentication, command: this.command() }, work);
  }

  authentication(): Authentication | null {
    return this.storage.getStore()?.authentication ?? null;
  }

  runCommand<T>(command: CommandContext, work: () => T): T {
    return this.storage.run({ authentication: this.authentication(), command }, work);
  }

  /** The command running in this call chain, if any. */
  command(): CommandContext | undefined {
    return this.storage.getStore()?.command;
  }
}
