import { inject, injectable } from 'inversify';
import type { Clock } from '../clock.js';
import type { ResolvedEngineConfig } from '../config.js';
import { CallScope } from './call-scope.js';
import { EventBus } from '../events/event-bus.js';
import type { IdGenerator } from '../id-generator.js';
import type { Logger } from '../logger.js';
import type { Store } from '../persistence/store.js';
import { CLOCK, ENGINE_CONFIG, ID_GENERATOR, LOGGER, STORE } from '../tokens.js';
import type { Command } from './command.js';
import { CommandContext } from './command-context.js';
import { EngineMetrics } from '../services/telemetry/engine-metrics.js';
import { RuntimeEnvironment } from '../runtime/runtime-environment.js';
import { translateDatabaseError } from './database-errors.js';
import { flushQueuedHistory } from '../history/queued-history.js';
import { forgetConnection, sendSqlTextDirectly } from '../persistence/sql-text.js';

/**
 * Runs each command in its own transaction, then the after-commit hooks it registered. A command
 * started while another runs in the same async flow (a delegate calling an engine service) joins
 * the running one's transaction, as Camunda's nested commands share their command context.
 */
@injectable()
export class CommandExecutor {
  constructor(
    @inject(STORE) private readonly store: Store,
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @inject(ENGINE_CONFIG) private readonly config: ResolvedEngineConfig,
    @inject(EventBus) private readonly events: EventBus,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(CallScope) private readonly scope: CallScope,
    @inject(EngineMetrics) private readonly metrics: EngineMetrics,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  async execute<T>(command: Command<T>): Promise<T> {
    const outer = this.scope.command();
    if (outer) return command.execute(outer);
    let context: CommandContext | undefined;
    let result: T;
    try {
      result = await this.store.db.transaction().execute(async (trx) => {
        await sendSqlTextDirectly(trx);
        try {
          context = new CommandContext(trx, this.store.dialect, this.clock, this.ids, this.config, this.events, this.scope.authentication());
          const result = await this.scope.runCommand(context, !this.env.delegates.empty, () => command.execute(context!));
          await flushQueuedHistory(context);
          return result;
        } finally {
          // Before COMMIT or ROLLBACK: after them the connection may serve another transaction.
          forgetConnection(trx);
        }
      });
    } catch (error) {
      throw translateDatabaseError(error);
    }
    this.metrics.commandCommitted(command.name);
    context?.runAfterCommitHooks((error) => this.logger.error(`after-commit hook of ${command.name} failed`, error));
    return result;
  }

  /** Whether the caller runs inside a command (its commands join that command's transaction). */
  inCommand(): boolean {
    return this.scope.command() !== undefined;
  }

  /** Runs a command whose whole logic is one function (most reads); `name` is Camunda's class name. */
  run<T>(name: string, execute: (ctx: CommandContext) => Promise<T>): Promise<T> {
    return this.execute({ name, execute });
  }
}
