/**
 * The engine's exception tree, named like Camunda's Java classes: the REST body's `type` is the
 * class name, so every class sets `name` explicitly (bundlers may mangle constructor names).
 * Core errors carry a `code` and payloads, never an HTTP status; the adapter chooses that.
 */

/** Camunda's built-in exception codes (BuiltinExceptionCode). */
export const ExceptionCode = {
  FALLBACK: 0,
  OPTIMISTIC_LOCKING: 1,
  DEADLOCK: 10000,
  FOREIGN_KEY_CONSTRAINT_VIOLATION: 10001,
  COLUMN_SIZE_TOO_SMALL: 10002,
} as const;

const BRAND = Symbol.for('trellis.ProcessEngineException');

/** Base of every engine error. Thrown for failures that are not the caller's fault (HTTP 500). */
export class ProcessEngineException extends Error {
  override readonly name: string = 'ProcessEngineException';
  readonly code: number;

  constructor(message: string, options: { code?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code ?? ExceptionCode.FALLBACK;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** True for engine errors, also across module copies (cross-realm safe). */
  static is(value: unknown): value is ProcessEngineException {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** The caller asked for something invalid (HTTP 400 unless a route says otherwise). */
export class BadUserRequestException extends ProcessEngineException {
  override readonly name: string = 'BadUserRequestException';
}

/** Something the caller named does not exist. Camunda maps it to 400 unless a resource rewrites it to 404. */
export class NotFoundException extends BadUserRequestException {
  override readonly name: string = 'NotFoundException';
}

/** A value fails validation. */
export class NotValidException extends BadUserRequestException {
  override readonly name: string = 'NotValidException';
}

/** The operation is not allowed in the current state or configuration. */
export class NotAllowedException extends BadUserRequestException {
  override readonly name: string = 'NotAllowedException';
}

/** The entity is suspended: what was asked needs it active. */
export class SuspendedEntityInteractionException extends NotAllowedException {
  override readonly name: string = 'SuspendedEntityInteractionException';
}

/** Camunda's ENGINE-03043 for a suspended entity ('Process Definition', 'ExternalTask', 'task'…). */
export const suspendedEntity = (type: string, id: string) => new SuspendedEntityInteractionException(`ENGINE-03043 ${type} with id '${id}' is suspended.`);

/**
 * Camunda's ProcessEnginePersistenceException: the database refused a write, here a row that repeats
 * a unique key (HTTP 500, with Camunda's message, which leaves the details to the server's log).
 */
export class ProcessEnginePersistenceException extends ProcessEngineException {
  override readonly name: string = 'ProcessEnginePersistenceException';
  constructor(cause: unknown) {
    super('An exception occurred in the persistence layer. Please check the server logs for a detailed message and the entire exception stack trace.', { cause });
  }
}

/** A required value is null (HTTP 500, as in Camunda). */
export class NullValueException extends ProcessEngineException {
  override readonly name: string = 'NullValueException';
}

/** Camunda's ScriptEvaluationException: a script of the model failed while it ran (HTTP 500). */
export class ScriptEvaluationException extends ProcessEngineException {
  override readonly name: string = 'ScriptEvaluationException';
}

/** Camunda's ScriptCompilationException: a script of the model does not compile (HTTP 500). */
export class ScriptCompilationException extends ProcessEngineException {
  override readonly name: string = 'ScriptCompilationException';
}

/** Camunda's TaskAlreadyClaimedException: another user holds the task (HTTP 500). */
export class TaskAlreadyClaimedException extends ProcessEngineException {
  override readonly name: string = 'TaskAlreadyClaimedException';
  constructor(taskId: string) {
    super(`Task '${taskId}' is already claimed by someone else.`);
  }
}

/** A concurrent change won: the row's revision moved on. Nothing of the command was written. */
export class OptimisticLockingException extends ProcessEngineException {
  override readonly name: string = 'OptimisticLockingException';
  constructor(message: string) {
    super(message, { code: ExceptionCode.OPTIMISTIC_LOCKING });
  }
}

/** One permission on one resource that would have allowed the denied operation. */
export interface MissingAuthorization {
  permissionName: string;
  resourceName: string;
  resourceId: string | null;
}

/** The authenticated user lacks a permission (HTTP 403). */
export class AuthorizationException extends ProcessEngineException {
  override readonly name: string = 'AuthorizationException';
  readonly userId: string | null;
  readonly missingAuthorizations: MissingAuthorization[];

  constructor(message: string, userId: string | null = null, missingAuthorizations: MissingAuthorization[] = []) {
    super(message);
    this.userId = userId;
    this.missingAuthorizations = missingAuthorizations;
  }
}

/** One problem found while parsing a deployed resource. */
export interface ParseProblem {
  message: string;
  line: number;
  column: number;
  mainElementId: string | null;
  elementIds: string[];
}

/** Problems of one resource, as Camunda's ResourceReport. */
export interface ResourceReport {
  errors: ParseProblem[];
  warnings: ParseProblem[];
}

/** A deployed resource is not valid BPMN (HTTP 400 with per-resource details). */
export class ParseException extends ProcessEngineException {
  override readonly name: string = 'ParseException';
  /** Keyed by resource name. */
  readonly details: Record<string, ResourceReport>;

  constructor(message: string, details: Record<string, ResourceReport>) {
    super(message);
    this.details = details;
  }
}
