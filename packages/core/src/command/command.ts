import type { CommandContext } from './command-context.js';

/** One unit of work: it runs inside one transaction and either commits whole or not at all. */
export interface Command<T> {
  /** Camunda's class name where one exists (telemetry counts commands by it). */
  readonly name: string;
  execute(context: CommandContext): Promise<T>;
}
