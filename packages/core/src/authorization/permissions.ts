import { Resources as R, type ResourceType } from './resources.js';

/** A named permission bit, valid for some resource types. */
export interface Permission {
  readonly name: string;
  readonly value: number;
  readonly types: readonly number[];
}

export const ALL_BITS = 2147483647;

const p = (name: string, value: number, types: ResourceType[]): Permission => Object.freeze({ name, value, types: types.map((t) => t.code) });
const everyType = Object.values(R);

// Camunda's generic Permissions enum, in declaration order (the order names appear in REST output).
const GENERIC: readonly Permission[] = [
  p('NONE', 0, everyType),
  p('ALL', ALL_BITS, everyType),
  p('READ', 2, [R.AUTHORIZATION, R.BATCH, R.DASHBOARD, R.DECISION_DEFINITION, R.DECISION_REQUIREMENTS_DEFINITION, R.DEPLOYMENT, R.FILTER, R.GROUP, R.PROCESS_DEFINITION, R.PROCESS_INSTANCE, R.REPORT, R.TASK, R.TENANT, R.USER]),
  p('UPDATE', 4, [R.AUTHORIZATION, R.BATCH, R.DASHBOARD, R.DECISION_DEFINITION, R.FILTER, R.GROUP, R.PROCESS_DEFINITION, R.PROCESS_INSTANCE, R.REPORT, R.TASK, R.TENANT, R.USER]),
  p('CREATE', 8, [R.AUTHORIZATION, R.BATCH, R.DASHBOARD, R.DEPLOYMENT, R.FILTER, R.GROUP, R.GROUP_MEMBERSHIP, R.PROCESS_INSTANCE, R.REPORT, R.TASK, R.TENANT, R.TENANT_MEMBERSHIP, R.USER]),
  p('DELETE', 16, [R.AUTHORIZATION, R.BATCH, R.DASHBOARD, R.DEPLOYMENT, R.FILTER, R.GROUP, R.GROUP_MEMBERSHIP, R.PROCESS_DEFINITION, R.PROCESS_INSTANCE, R.REPORT, R.TASK, R.TENANT, R.TENANT_MEMBERSHIP, R.USER]),
  p('ACCESS', 32, [R.APPLICATION]),
  p('READ_TASK', 64, [R.PROCESS_DEFINITION]),
  p('UPDATE_TASK', 128, [R.PROCESS_DEFINITION]),
  p('CREATE_INSTANCE', 256, [R.DECISION_DEFINITION, R.PROCESS_DEFINITION]),
  p('READ_INSTANCE', 512, [R.PROCESS_DEFINITION]),
  p('UPDATE_INSTANCE', 1024, [R.PROCESS_DEFINITION]),
  p('DELETE_INSTANCE', 2048, [R.PROCESS_DEFINITION]),
  p('READ_HISTORY', 4096, [R.BATCH, R.DECISION_DEFINITION, R.PROCESS_DEFINITION, R.TASK]),
  p('DELETE_HISTORY', 8192, [R.BATCH, R.DECISION_DEFINITION, R.PROCESS_DEFINITION]),
  p('TASK_WORK', 16384, [R.PROCESS_DEFINITION, R.TASK]),
  p('TASK_ASSIGN', 32768, [R.PROCESS_DEFINITION, R.TASK]),
  p('MIGRATE_INSTANCE', 65536, [R.PROCESS_DEFINITION]),
];

const only = (type: ResourceType, entries: Array<[string, number]>): readonly Permission[] => [
  p('NONE', 0, everyType),
  p('ALL', ALL_BITS, everyType),
  ...entries.map(([name, value]) => p(name, value, [type])),
];

const PROCESS_DEFINITION = only(R.PROCESS_DEFINITION, [
  ['READ', 2], ['UPDATE', 4], ['DELETE', 16], ['READ_TASK', 64], ['UPDATE_TASK', 128], ['CREATE_INSTANCE', 256],
  ['READ_INSTANCE', 512], ['UPDATE_INSTANCE', 1024], ['DELETE_INSTANCE', 2048], ['READ_HISTORY', 4096], ['DELETE_HISTORY', 8192],
  ['TASK_WORK', 16384], ['TASK_ASSIGN', 32768], ['MIGRATE_INSTANCE', 65536], ['RETRY_JOB', 32], ['SUSPEND', 1048576],
  ['SUSPEND_INSTANCE', 131072], ['UPDATE_INSTANCE_VARIABLE', 262144], ['UPDATE_TASK_VARIABLE', 524288],
  ['READ_INSTANCE_VARIABLE', 2097152], ['READ_HISTORY_VARIABLE', 4194304], ['READ_TASK_VARIABLE', 8388608], ['UPDATE_HISTORY', 16777216],
]);

const BY_TYPE = new Map<number, readonly Permission[]>([
  [R.PROCESS_DEFINITION.code, PROCESS_DEFINITION],
  [R.PROCESS_INSTANCE.code, only(R.PROCESS_INSTANCE, [['READ', 2], ['UPDATE', 4], ['CREATE', 8], ['DELETE', 16], ['RETRY_JOB', 32], ['SUSPEND', 64], ['UPDATE_VARIABLE', 128]])],
  [R.TASK.code, only(R.TASK, [['READ', 2], ['UPDATE', 4], ['CREATE', 8], ['DELETE', 16], ['READ_HISTORY', 4096], ['TASK_WORK', 16384], ['TASK_ASSIGN', 32768], ['UPDATE_VARIABLE', 32], ['READ_VARIABLE', 64]])],
  [R.BATCH.code, only(R.BATCH, [
    ['READ', 2], ['UPDATE', 4], ['CREATE', 8], ['DELETE', 16], ['READ_HISTORY', 4096], ['DELETE_HISTORY', 8192],
    ['CREATE_BATCH_MIGRATE_PROCESS_INSTANCES', 32], ['CREATE_BATCH_MODIFY_PROCESS_INSTANCES', 64], ['CREATE_BATCH_RESTART_PROCESS_INSTANCES', 128],
    ['CREATE_BATCH_DELETE_RUNNING_PROCESS_INSTANCES', 256], ['CREATE_BATCH_DELETE_FINISHED_PROCESS_INSTANCES', 512],
    ['CREATE_BATCH_DELETE_DECISION_INSTANCES', 1024], ['CREATE_BATCH_SET_JOB_RETRIES', 2048], ['CREATE_BATCH_SET_EXTERNAL_TASK_RETRIES', 16384],
    ['CREATE_BATCH_UPDATE_PROCESS_INSTANCES_SUSPEND', 32768], ['CREATE_BATCH_SET_REMOVAL_TIME', 65536], ['CREATE_BATCH_SET_VARIABLES', 131072],
    ['CREATE_BATCH_CORRELATE_MESSAGE', 262144],
  ])],
  [R.HISTORIC_TASK.code, only(R.HISTORIC_TASK, [['READ', 2], ['READ_VARIABLE', 64]])],
  [R.HISTORIC_PROCESS_INSTANCE.code, only(R.HISTORIC_PROCESS_INSTANCE, [['READ', 2]])],
  [R.OPERATION_LOG_CATEGORY.code, only(R.OPERATION_LOG_CATEGORY, [['READ', 2], ['UPDATE', 4], ['DELETE', 16]])],
  [R.OPTIMIZE.code, only(R.OPTIMIZE, [['EDIT', 2], ['SHARE', 4]])],
  [R.SYSTEM.code, only(R.SYSTEM, [['READ', 2], ['SET', 4], ['DELETE', 8]])],
]);

/** The permission enum Camunda's ResourceTypeUtil picks for a type code (the generic one by default). */
export function permissionsOf(resourceType: number): readonly Permission[] {
  return BY_TYPE.get(resourceType) ?? GENERIC;
}

/** The permission of this name in the type's enum, or undefined. */
export function permissionByName(resourceType: number, name: string): Permission | undefined {
  return permissionsOf(resourceType).find((permission) => permission.name === name);
}

/** Whether the permission is declared for the resource type (Camunda's ENGINE-03087 / 03086 checks). */
export function isValidFor(permission: Permission, resourceType: number): boolean {
  return permission.types.includes(resourceType);
}
