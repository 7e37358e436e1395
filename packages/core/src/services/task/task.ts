import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';
import type { TaskQueryExpression } from './query-expressions.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';
import type { CamundaFormRef } from '../process-definition/start-form.js';

/** Camunda's Task.PRIORITY_NORMAL: the priority of a task nothing else gives one. */
export const TASK_PRIORITY_NORMAL = 50;

/** A user task waiting for a person. */
export interface Task {
  id: string;
  name: string | null;
  description: string | null;
  taskDefinitionKey: string | null;
  assignee: string | null;
  owner: string | null;
  priority: number;
  due: Date | null;
  followUp: Date | null;
  created: Date;
  processInstanceId: string | null;
  executionId: string | null;
  processDefinitionId: string | null;
  activityInstanceId: string | null;
  formKey: string | null;
  /**
   * The user task's camunda:formRef, evaluated; only where the task has no form key. Filled in as
   * a task is read (Camunda's initializeFormKeys); absent on tasks the engine works on inside.
   */
  camundaFormRef?: CamundaFormRef | null;
  suspended: boolean;
  tenantId: string | null;
  /** PENDING while delegated, RESOLVED once resolved; null (or absent) for a task never delegated. */
  delegationState?: DelegationState | null;
  /** The task this one is a sub-task of (null or absent: none). */
  parentTaskId?: string | null;
  /** When a command last updated the task (Camunda's lastUpdated; null or absent: never). */
  lastUpdated?: Date | null;
  /** Whether it has comments and attachments: read only by a query asking withCommentAttachmentInfo. */
  commentAttachmentInfo?: { comment: boolean; attachment: boolean };
}

/** A standalone task to create (REST's POST /task/create: Camunda's TaskDto applied to a new task). */
export interface NewTask {
  /** Generated when not given. */
  id?: string | null;
  name?: string | null;
  description?: string | null;
  /** Camunda's REST gives 0 when the body has none; the engine's own default is 50. */
  priority?: number;
  assignee?: string | null;
  owner?: string | null;
  delegationState?: DelegationState | null;
  due?: Date | null;
  followUp?: Date | null;
  parentTaskId?: string | null;
  tenantId?: string | null;
}

/** What an update of a task sets (REST's TaskDto): all of it, a field left out included. */
export interface TaskUpdate {
  name: string | null;
  /** Camunda does not check it on update (only when a task is created). */
  parentTaskId?: string | null;
  description: string | null;
  priority: number;
  assignee: string | null;
  owner: string | null;
  delegationState: DelegationState | null;
  due: Date | null;
  followUp: Date | null;
  tenantId: string | null;
}

/** Camunda's DelegationState. */
export type DelegationState = 'PENDING' | 'RESOLVED';

/** One of a task's identity links as Camunda reports them (assignee and owner included). */
/** A task's identity link: its assignee or owner, a candidate, or a link of a custom type (or none, null). */
export interface TaskIdentityLink {
  userId: string | null;
  groupId: string | null;
  type: string | null;
  taskId: string;
}

export interface TaskCandidates {
  users: readonly string[];
  groups: readonly string[];
}

export type TaskSortField =
  | 'id' | 'name' | 'nameCaseInsensitive' | 'assignee' | 'created' | 'dueDate' | 'followUpDate' | 'priority' | 'instanceId' | 'executionId'
  | 'description' | 'lastUpdated' | 'tenantId' | 'processVariable' | 'executionVariable' | 'taskVariable';

export interface TaskQuery extends Page, TenantChecked {
  taskId?: string;
  taskIdIn?: string[];
  /** Sub-tasks of this task. */
  parentTaskId?: string;
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  processDefinitionId?: string;
  processDefinitionKey?: string;
  executionId?: string;
  taskDefinitionKey?: string;
  name?: string;
  nameLike?: string;
  assignee?: string;
  assigneeLike?: string;
  unassigned?: boolean;
  assigned?: boolean;
  /** Tasks this user is a candidate for, directly or through one of their groups (Camunda's getCandidateGroups). */
  candidateUser?: string;
  candidateGroup?: string;
  /** Candidate groups whose id matches this SQL pattern. */
  candidateGroupLike?: string;
  /** Tasks updated after this moment, or never updated and created after it. */
  updatedAfter?: Date;
  /** Read whether each task found has comments and attachments (Task.commentAttachmentInfo). */
  withCommentAttachmentInfo?: boolean;
  active?: boolean;
  suspended?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  processInstanceBusinessKey?: string;
  /** Camunda ignores an empty list here and in the other `…In`/`…NotIn` lists below. */
  processInstanceBusinessKeyIn?: string[];
  processInstanceBusinessKeyLike?: string;
  processDefinitionKeyIn?: string[];
  processDefinitionName?: string;
  processDefinitionNameLike?: string;
  taskDefinitionKeyIn?: string[];
  taskDefinitionKeyLike?: string;
  assigneeIn?: string[];
  assigneeNotIn?: string[];
  owner?: string;
  /** name, nameLike, nameNotEqual, nameNotLike, description and descriptionLike ignore case, as in Camunda. */
  nameNotEqual?: string;
  nameNotLike?: string;
  description?: string;
  descriptionLike?: string;
  priority?: number;
  maxPriority?: number;
  minPriority?: number;
  dueDate?: Date;
  dueAfter?: Date;
  dueBefore?: Date;
  withoutDueDate?: boolean;
  followUpDate?: Date;
  followUpAfter?: Date;
  followUpBefore?: Date;
  /** Follow-up date before this one, or none at all. */
  followUpBeforeOrNotExistent?: Date;
  createdOn?: Date;
  createdAfter?: Date;
  createdBefore?: Date;
  delegationState?: DelegationState;
  candidateGroups?: string[];
  withCandidateGroups?: boolean;
  withoutCandidateGroups?: boolean;
  withCandidateUsers?: boolean;
  withoutCandidateUsers?: boolean;
  /** With a candidate criterion: assigned tasks count too (otherwise those find only unassigned tasks). */
  includeAssignedTasks?: boolean;
  /** The assignee, the owner or a candidate user. */
  involvedUser?: string;
  activityInstanceIdIn?: string[];
  /** Conditions on the task's local variables. */
  taskVariables?: VariableValueCondition[];
  /** Conditions on the variables of the task's process instance (any scope, not task-local). */
  processVariables?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  sorting?: Sorting<TaskSortField>[];
  /** Criteria as expressions, evaluated when the query runs (stored queries: filters). */
  expressions?: Partial<Record<TaskQueryExpression, string>>;
  /** Camunda's or(): each holds when any of its criteria does; all of them and the rest of the query must hold. */
  orQueries?: TaskQuery[];
}
