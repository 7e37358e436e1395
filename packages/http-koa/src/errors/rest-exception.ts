import { AuthorizationException, BadUserRequestException, NotFoundException, ProcessEngineException } from '@trellis/core';

/**
 * An error raised by the REST layer itself, carrying its HTTP status (Camunda's
 * InvalidRequestException / RestException). Engine errors never carry a status.
 */
export class InvalidRequestException extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The `type` of the JSON body: 'InvalidRequestException' or 'RestException'. */
    readonly type: 'InvalidRequestException' | 'RestException' = 'InvalidRequestException',
    /** The engine code when the cause was an engine error, else null. */
    readonly code: number | null = null,
  ) {
    super(message);
    this.name = type;
  }
}

/** Runs an engine call, turning its NotFoundException into a 404 with the given or the engine's message. */
export async function notFoundAs404<T>(call: () => Promise<T>, message?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(404, message ?? error.message);
    throw error;
  }
}

/**
 * Runs an engine call, turning its BadUserRequestException into a 400 InvalidRequestException with
 * the engine's message and code (Camunda's batch endpoints, create-incident and the migration plan
 * endpoints catch them so), except those `keep` picks, which pass unchanged.
 */
export async function badUserRequestAs400<T>(call: () => Promise<T>, keep: (error: BadUserRequestException) => boolean = () => false): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BadUserRequestException && !keep(error)) throw new InvalidRequestException(400, error.message, 'InvalidRequestException', error.code);
    throw error;
  }
}

/** Camunda's setJobRetries / setJobDuedate resources: any engine error but a denied permission → 500 InvalidRequestException. */
export async function engineErrorAs500(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
    throw new InvalidRequestException(500, error.message);
  }
}

/**
 * Camunda's AbstractVariablesResource around an engine call: a denial stays a 403; any other engine
 * failure (an unknown entity too) is a 500 RestException `<prefix>: <message>` — a BadUserRequestException
 * a 400 where the resource catches it apart (`badUserRequest`: PUT of one variable).
 */
export async function variableCommand<T>(prefix: string, call: () => Promise<T>, badUserRequest: 400 | 500 = 500): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
    const status = error instanceof BadUserRequestException ? badUserRequest : 500;
    throw new InvalidRequestException(status, `${prefix}: ${error.message}`, 'RestException', error.code);
  }
}
