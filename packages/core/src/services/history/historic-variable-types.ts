import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A variable as history keeps it (Camunda's HistoricVariableInstance): its latest value, CREATED or DELETED. */
export interface HistoricVariableInstance {
  id: string;
  name: string;
  value: TypedValue;
  processDefinitionKey: string | null;
  processDefinitionId: string | null;
  processInstanceId: string | null;
  rootProcessInstanceId: string | null;
  executionId: string | null;
  activityInstanceId: string | null;
  taskId: string | null;
  tenantId: string | null;
  state: 'CREATED' | 'DELETED';
  createTime: Date;
  removalTime: Date | null;
}

export type HistoricVariableInstanceSortField = 'instanceId' | 'variableName' | 'tenantId';

export interface HistoricVariableInstanceQuery extends Page, TenantChecked {
  variableId?: string;
  variableName?: string;
  variableNameLike?: string;
  variableNameIn?: string[];
  /** Equals this value (with variableName). */
  variableValue?: string | number | boolean | Date | null;
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  /** Camunda's value type names (string, integer, …), compared without case. */
  variableTypeIn?: string[];
  includeDeleted?: boolean;
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  processDefinitionId?: string;
  processDefinitionKey?: string;
  executionIdIn?: string[];
  taskIdIn?: string[];
  activityInstanceIdIn?: string[];
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<HistoricVariableInstanceSortField>[];
}

/** One update of a variable (Camunda's HistoricVariableUpdate, the only kind of HistoricDetail Trellis writes). */
export interface HistoricVariableUpdate {
  id: string;
  type: 'variableUpdate';
  variableName: string;
  variableInstanceId: string | null;
  value: TypedValue;
  revision: number;
  initial: boolean;
  time: Date;
  processDefinitionKey: string | null;
  processDefinitionId: string | null;
  processInstanceId: string | null;
  rootProcessInstanceId: string | null;
  executionId: string | null;
  activityInstanceId: string | null;
  taskId: string | null;
  tenantId: string | null;
  userOperationId: string | null;
  removalTime: Date | null;
}

/** A submitted form field (Camunda's HistoricFormField): String values submitted through a start or task form, at level full. */
export interface HistoricFormField extends Omit<HistoricVariableUpdate, 'type' | 'variableName' | 'variableInstanceId' | 'value' | 'revision' | 'initial'> {
  type: 'formField';
  fieldId: string;
  fieldValue: string | null;
}

/** Camunda's HistoricDetail: a variable update or a form field. */
export type HistoricDetail = HistoricVariableUpdate | HistoricFormField;

export type HistoricDetailSortField = 'processInstanceId' | 'variableName' | 'variableType' | 'variableRevision' | 'formPropertyId' | 'time' | 'occurrence' | 'tenantId';

export interface HistoricDetailQuery extends Page, TenantChecked {
  detailId?: string;
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  executionId?: string;
  taskId?: string;
  activityInstanceId?: string;
  variableInstanceId?: string;
  variableTypeIn?: string[];
  variableNameLike?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  userOperationId?: string;
  formFields?: boolean;
  variableUpdates?: boolean;
  excludeTaskDetails?: boolean;
  initial?: boolean;
  occurredBefore?: Date;
  occurredAfter?: Date;
  sorting?: Sorting<HistoricDetailSortField>[];
}
