import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { NumberTypeName, TypedValue } from '../../runtime/variables/index.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A stored variable as Camunda's VariableInstance shows it (runtime, no history). */
export interface VariableInstance {
  id: string;
  name: string;
  /** The value; Bytes values (and File contents) are only loaded by `getVariableInstanceData`. */
  value: TypedValue;
  processDefinitionId: string | null;
  processInstanceId: string | null;
  executionId: string | null;
  taskId: string | null;
  /** The batch a batch variable belongs to (it has no instance, execution or task). */
  batchId: string | null;
  /** The activity instance of the variable's scope (the process instance id for instance variables). */
  activityInstanceId: string | null;
  tenantId: string | null;
}

export type VariableInstanceSortField = 'variableName' | 'variableType' | 'activityInstanceId' | 'tenantId';

/** Camunda's QueryOperator: `neq` and `notLike` hold where `eq` and `like` do not (a variable of another type included). */
export type VariableComparisonOperator = 'eq' | 'neq' | 'gt' | 'gteq' | 'lt' | 'lteq' | 'like' | 'notLike';

/** One `variableValues` condition: the variable itself must have this name and a value matching it. */
export interface VariableValueCondition {
  name: string;
  operator: VariableComparisonOperator;
  /** A string matches String variables, a number the number types, a boolean Boolean, a Date Date variables. */
  value: string | number | boolean | Date | null;
  /**
   * A number of this one type (Camunda's SingleQueryVariableValueCondition for an Integer, Long… value);
   * without it, a number matches every number type it converts to (REST's Variables.numberValue).
   */
  numberType?: NumberTypeName;
}

export interface VariableInstanceQuery extends Page, TenantChecked {
  variableId?: string;
  variableName?: string;
  /** Camunda's variableNameIn (the engine API's; REST has no such parameter). */
  variableNameIn?: string[];
  variableNameLike?: string;
  processInstanceIdIn?: string[];
  executionIdIn?: string[];
  /** Trellis has no cases: a non-empty list matches nothing. */
  caseInstanceIdIn?: string[];
  caseExecutionIdIn?: string[];
  /** The variables of these batches (set-variables, correlate-message and instance-migration keep theirs). */
  batchIdIn?: string[];
  taskIdIn?: string[];
  activityInstanceIdIn?: string[];
  /** Execution, task or batch ids the variables belong to. */
  variableScopeIdIn?: string[];
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  variableValues?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  sorting?: Sorting<VariableInstanceSortField>[];
}
