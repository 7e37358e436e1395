import { ProcessEngineException } from '../../errors/exceptions.js';
import { fromJsonStorage, toJsonStorage, type JsonStoredVariables, type TypedValue } from '../../runtime/variables/index.js';

/**
 * Batch variables (Camunda keeps them in ACT_RU_VARIABLE under the batch id): here they live in the
 * batch's JSON configuration (toJsonStorage), so that dates, bytes and files come back as they went
 * in. They go when the batch row goes, that is when the batch completes or is deleted.
 */
export type StoredBatchVariables = JsonStoredVariables;

const JAVA_SERIALIZED = 'application/x-java-serialized-object';

/** Camunda's VariableUtil#setVariablesByBatchId: refuses Java-serialized objects (ENGINE-17007), then stores. */
export function storeBatchVariables(variables: Record<string, TypedValue>): StoredBatchVariables {
  for (const [name, value] of Object.entries(variables)) {
    if (value.type === 'object' && value.value.serializationDataFormat === JAVA_SERIALIZED) {
      throw new ProcessEngineException(`ENGINE-17007 Cannot set variable with name ${name}. Java serialization format is prohibited`);
    }
  }
  return toJsonStorage(variables);
}

export const loadBatchVariables: (stored: StoredBatchVariables) => Record<string, TypedValue> = fromJsonStorage;
