import { ProcessEngineException } from '../../errors/exceptions.js';
import { fromStorage, toStorage, type TypedValue, type VariableStorageRow } from '../../runtime/variables/index.js';

/**
 * Batch variables (Camunda keeps them in ACT_RU_VARIABLE under the batch id): here they live in the
 * batch's JSON configuration, in the variable table's column layout with bytes as base64, so that
 * dates, bytes and files come back as they went in. They go when the batch row goes, that is when the
 * batch completes or is deleted.
 */
export type StoredBatchVariables = Record<string, Omit<VariableStorageRow, 'bytes'> & { bytes: string | null }>;

const JAVA_SERIALIZED = 'application/x-java-serialized-object';

/** Camunda's VariableUtil#setVariablesByBatchId: refuses Java-serialized objects (ENGINE-17007), then stores. */
export function storeBatchVariables(variables: Record<string, TypedValue>): StoredBatchVariables {
  const stored: StoredBatchVariables = {};
  for (const [name, value] of Object.entries(variables)) {
    if (value.type === 'object' && value.value.serializationDataFormat === JAVA_SERIALIZED) {
      throw new ProcessEngineException(`ENGINE-17007 Cannot set variable with name ${name}. Java serialization format is prohibited`);
    }
    const row = toStorage(value);
    stored[name] = { ...row, bytes: row.bytes === null ? null : row.bytes.toString('base64') };
  }
  return stored;
}

export function loadBatchVariables(stored: StoredBatchVariables): Record<string, TypedValue> {
  return Object.fromEntries(
    Object.entries(stored).map(([name, row]) => [name, fromStorage({ ...row, bytes: row.bytes === null ? null : Buffer.from(row.bytes, 'base64') })]),
  );
}
