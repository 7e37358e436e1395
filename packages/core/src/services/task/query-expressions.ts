import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { evaluateOf } from '../../runtime/expressions/conditions.js';
import { engineFunctions, ExpressionDateTime } from '../../runtime/expressions/engine-functions.js';
import type { TaskQuery } from './task.js';

/** Criteria a task query may give as an expression (Camunda's TaskQueryImpl `…Expression` fields), and what each sets. */
export const TASK_QUERY_EXPRESSIONS = {
  assigneeExpression: 'assignee',
  assigneeLikeExpression: 'assigneeLike',
  ownerExpression: 'owner',
  candidateUserExpression: 'candidateUser',
  candidateGroupExpression: 'candidateGroup',
  candidateGroupsExpression: 'candidateGroups',
  involvedUserExpression: 'involvedUser',
  processInstanceBusinessKeyExpression: 'processInstanceBusinessKey',
  processInstanceBusinessKeyLikeExpression: 'processInstanceBusinessKeyLike',
  dueDateExpression: 'dueDate',
  dueAfterExpression: 'dueAfter',
  dueBeforeExpression: 'dueBefore',
  followUpDateExpression: 'followUpDate',
  followUpAfterExpression: 'followUpAfter',
  followUpBeforeExpression: 'followUpBefore',
  followUpBeforeOrNotExistentExpression: 'followUpBeforeOrNotExistent',
  createdOnExpression: 'createdOn',
  createdAfterExpression: 'createdAfter',
  createdBeforeExpression: 'createdBefore',
  updatedAfterExpression: 'updatedAfter',
} as const;

export type TaskQueryExpression = keyof typeof TASK_QUERY_EXPRESSIONS;

/** The TaskQueryImpl method an expression criterion is applied with (where it differs from the criterion). */
const QUERY_METHODS: Record<string, string> = {
  assignee: 'taskAssignee', assigneeLike: 'taskAssigneeLike', owner: 'taskOwner', candidateUser: 'taskCandidateUser',
  candidateGroup: 'taskCandidateGroup', candidateGroups: 'taskCandidateGroupIn', involvedUser: 'taskInvolvedUser',
  createdOn: 'taskCreatedOn', createdAfter: 'taskCreatedAfter', createdBefore: 'taskCreatedBefore',
};

const DATE_TARGETS = new Set<string>(['dueDate', 'dueAfter', 'dueBefore', 'followUpDate', 'followUpAfter', 'followUpBefore', 'followUpBeforeOrNotExistent', 'createdOn', 'createdAfter', 'createdBefore', 'updatedAfter']);

/**
 * Camunda's TaskQueryImpl.evaluateExpressions: each `…Expression` criterion is evaluated when the
 * query runs — `currentUser()`, `currentUserGroups()`, `now()` and `dateTime()` — and sets its
 * criterion. A null result (or no groups) is Camunda's failure to apply it.
 */
export function resolveQueryExpressions(ctx: CommandContext, query: TaskQuery): TaskQuery {
  // Camunda's ensureOrExpressionsEvaluated: the or-queries' expressions too.
  if (query.orQueries?.some((or) => or.expressions)) query = { ...query, orQueries: query.orQueries.map((or) => resolveQueryExpressions(ctx, or)) };
  if (!query.expressions) return query;
  const functions = engineFunctions(ctx);
  const context = { has: (name: string) => name in functions, resolve: (name: string) => functions[name] };
  const resolved: Record<string, unknown> = { ...query };
  delete resolved.expressions;
  for (const [key, text] of Object.entries(query.expressions)) {
    const target = TASK_QUERY_EXPRESSIONS[key as TaskQueryExpression];
    let value = evaluateOf(text, context);
    if (value instanceof ExpressionDateTime) value = value.date;
    // Camunda's query setter refuses null (and an empty group list), which its reflection reports so.
    if (value === null || value === undefined || (Array.isArray(value) && value.length === 0)) {
      throw new ProcessEngineException(`Unable to invoke method '${QUERY_METHODS[target] ?? target}' on class 'org.camunda.bpm.engine.impl.TaskQueryImpl'`);
    }
    if (target === 'candidateGroups') resolved[target] = Array.isArray(value) ? value.map(String) : String(value).split(',');
    else if (DATE_TARGETS.has(target)) resolved[target] = value instanceof Date ? value : new Date(String(value));
    else resolved[target] = String(value);
  }
  return resolved as TaskQuery;
}
