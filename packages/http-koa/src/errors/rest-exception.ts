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
 * endpoints catch them so, passing the cause), except those `keep` picks, which pass unchanged.
 * `withCode: false`: the resource passes the message only, so the body's code is null.
 */
export async function badUserRequestAs400<T>(
  call: () => Promise<T>,
  keep: (error: BadUserRequestException) => boolean = () => false,
  { withCode = true }: { withCode?: boolean } = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BadUserRequestException && !keep(error)) throw new InvalidRequestException(400, error.message, 'InvalidRequestException', withCode ? error.code : null);
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
 * Camunda's resources that wrap an engine call's failure (AbstractVariablesResource, TaskResourceImpl's
 * complete and submit, ExecutionResourceImpl's signal): a denial stays a 403; any other engine error
 * (an unknown entity too) is a RestException `<prefix>: <message>` with the engine's code, a 400 where
 * `badRequest` says the resource catches it apart, else a 500.
 */
export async function asRestException<T>(prefix: string, call: () => Promise<T>, badRequest: (error: ProcessEngineException) => boolean = () => false): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
    throw new InvalidRequestException(badRequest(error) ? 400 : 500, `${prefix}: ${error.message}`, 'RestException', error.code);
  }
}
