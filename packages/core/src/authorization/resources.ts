/** Camunda's Resources enum: the type code, the name messages use, and the enum constant. */
export interface ResourceType {
  readonly code: number;
  /** resourceName(), e.g. 'ProcessDefinition' (typos included, as Camunda spells them). */
  readonly name: string;
  /** The Java enum constant, e.g. 'PROCESS_DEFINITION' (used in permission conversion messages). */
  readonly constant: string;
}

const define = (code: number, constant: string, name: string): ResourceType => Object.freeze({ code, name, constant });

export const Resources = {
  APPLICATION: define(0, 'APPLICATION', 'Application'),
  USER: define(1, 'USER', 'User'),
  GROUP: define(2, 'GROUP', 'Group'),
  GROUP_MEMBERSHIP: define(3, 'GROUP_MEMBERSHIP', 'Group membership'),
  AUTHORIZATION: define(4, 'AUTHORIZATION', 'Authorization'),
  FILTER: define(5, 'FILTER', 'Filter'),
  PROCESS_DEFINITION: define(6, 'PROCESS_DEFINITION', 'ProcessDefinition'),
  TASK: define(7, 'TASK', 'Task'),
  PROCESS_INSTANCE: define(8, 'PROCESS_INSTANCE', 'ProcessInstance'),
  DEPLOYMENT: define(9, 'DEPLOYMENT', 'Deployment'),
  DECISION_DEFINITION: define(10, 'DECISION_DEFINITION', 'DecisionDefinition'),
  TENANT: define(11, 'TENANT', 'Tenant'),
  TENANT_MEMBERSHIP: define(12, 'TENANT_MEMBERSHIP', 'TenantMembership'),
  BATCH: define(13, 'BATCH', 'Batch'),
  DECISION_REQUIREMENTS_DEFINITION: define(14, 'DECISION_REQUIREMENTS_DEFINITION', 'DecisionRequirementsDefinition'),
  REPORT: define(15, 'REPORT', 'Report'),
  DASHBOARD: define(16, 'DASHBOARD', 'Dashboard'),
  OPERATION_LOG_CATEGORY: define(17, 'OPERATION_LOG_CATEGORY', 'OperationLogCatgeory'),
  OPTIMIZE: define(18, 'OPTIMIZE', 'Optimize'),
  HISTORIC_TASK: define(19, 'HISTORIC_TASK', 'HistoricTask'),
  HISTORIC_PROCESS_INSTANCE: define(20, 'HISTORIC_PROCESS_INSTANCE', 'HistoricProcessInstance'),
  SYSTEM: define(21, 'SYSTEM', 'System'),
} as const;

const BY_CODE = new Map(Object.values(Resources).map((resource) => [resource.code, resource]));

/** The resource type with this code, or undefined for an unknown (custom) code. */
export function resourceByCode(code: number): ResourceType | undefined {
  return BY_CODE.get(code);
}

export const ALL_RESOURCE_TYPES: readonly ResourceType[] = Object.freeze([...BY_CODE.values()]);

/** Camunda's Authorization.ANY: every user (userId) or every resource instance (resourceId). */
export const ANY = '*';

/** Camunda's Groups.CAMUNDA_ADMIN. */
export const CAMUNDA_ADMIN = 'camunda-admin';
