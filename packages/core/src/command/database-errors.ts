import { ExceptionCode, OptimisticLockingException, ProcessEngineException, ProcessEnginePersistenceException } from '../errors/exceptions.js';
import { OPTIMISTIC_LOCK_FAILED } from '../persistence/repositories/instance-cleanup.js';
import { STALE_SNAPSHOT, StaleSnapshotError } from '../persistence/repositories/instance-snapshot.js';

/**
 * Driver errors become engine errors with Camunda's built-in codes, so a client sees
 * `{type: 'ProcessEngineException', code: 10001}` and never a driver's class name; a repeated unique
 * key is Camunda's ProcessEnginePersistenceException.
 */
export function translateDatabaseError(error: unknown): unknown {
  if (ProcessEngineException.is(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (code === '40P01') return new ProcessEngineException(error.message, { code: ExceptionCode.DEADLOCK, cause: error });
  if (code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY') {
    return new ProcessEngineException(error.message, { code: ExceptionCode.FOREIGN_KEY_CONSTRAINT_VIOLATION, cause: error });
  }
  if (code === '22P02' && error.message.includes(STALE_SNAPSHOT)) return new StaleSnapshotError();
  if (code === '22P02' && error.message.includes(OPTIMISTIC_LOCK_FAILED)) {
    const [processInstanceId] = error.message.slice(error.message.indexOf(OPTIMISTIC_LOCK_FAILED) + OPTIMISTIC_LOCK_FAILED.length).split(':');
    return new OptimisticLockingException(`ExecutionEntity[${processInstanceId}] was updated by another transaction concurrently`);
  }
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return new ProcessEnginePersistenceException(error);
  if (code === '22001') return new ProcessEngineException(error.message, { code: ExceptionCode.COLUMN_SIZE_TOO_SMALL, cause: error });
  return error;
}
