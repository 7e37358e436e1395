import { ensureNotBlank } from '../errors/ensure.js';
import type { Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';

/**
 * A business error a delegate, script or worker throws for the model to catch (Camunda's BpmnError).
 * Throws a ProcessEngineException when the code, or a message given, is empty or blank (Camunda's
 * setters: "Error Code is empty", "Error Message is empty").
 */
export class BpmnError extends Error {
  override readonly name = 'BpmnError';

  /** The message as Camunda's BpmnError.getMessage gives it: null when none was given (the catching event's errorMessageVariable gets null). */
  readonly errorMessage: string | null;

  constructor(
    readonly errorCode: string,
    message?: string | null,
  ) {
    super(message ?? errorCode);
    ensureNotBlank(errorCode, 'Error Code');
    if (message != null) ensureNotBlank(message, 'Error Message');
    this.errorMessage = message ?? null;
  }
}

/** The BpmnError an error is or was caused by, if any. */
export function findBpmnError(error: unknown): BpmnError | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof BpmnError) return current;
  }
  return null;
}

/** Runs `work`; a BpmnError it throws (a script's too) goes to its catcher, and then this answers true. */
export async function withErrorPropagation(runner: ProcessRunner, execution: Execution, work: () => Promise<void>): Promise<boolean> {
  try {
    await work();
    return false;
  } catch (error) {
    const bpmnError = findBpmnError(error);
    if (!bpmnError) throw error;
    await runner.throwError(execution, bpmnError.errorCode, bpmnError.errorMessage);
    return true;
  }
}
