import Router from '@koa/router';
import { TASK_QUERY_EXPRESSIONS, type TaskQueryExpression, AuthorizationException, BadUserRequestException, FormFieldValidationException, NotFoundException, NotValidException, NullValueException, ProcessEngineException, suspendedEntity, type DelegationState, type Task, type TaskQuery } from '@trellis/core';
import { readJsonBody, readJsonObject, text, flag, integer, dateValue } from '../body.js';
import { attachmentDisposition, REPORT_MEDIA_TYPES, sendDeployedForm, XHTML } from '../dto/content-types.js';
import { toAttachmentDto, toCommentDto, toTaskDto } from '../dto/runtime-dto.js';
import { toCamundaFormRefDto } from '../dto/form-dto.js';
import { readMultipart } from '../multipart.js';
import { selfLink } from '../dto/links.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { asRestException, InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, orQueriesFrom, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';
import { variableRoutes } from './variable-routes.js';
import { COMPARISONS, variableCriteria, variableRule } from '../query/variable-criteria.js';
import { halTaskList, halTaskWithLinks, sendHal, taskListVariant } from '../dto/hal.js';

const TASK_QUERY: QuerySpec = {
  params: {
    taskId: 'string', taskIdIn: 'stringArray', processInstanceId: 'string', processInstanceIdIn: 'stringArray',
    processDefinitionId: 'string', processDefinitionKey: 'string', executionId: 'string', taskDefinitionKey: 'string',
    name: 'string', nameLike: 'string', assignee: 'string', assigneeLike: 'string', unassigned: 'boolean', assigned: 'boolean',
    candidateUser: 'string', candidateGroup: 'string', candidateGroupLike: 'string', active: 'boolean', suspended: 'boolean', tenantIdIn: 'stringArray',
    withoutTenantId: 'boolean',
    processInstanceBusinessKey: 'string', processInstanceBusinessKeyIn: 'stringArray', processInstanceBusinessKeyLike: 'string',
    processDefinitionKeyIn: 'stringArray', processDefinitionName: 'string', processDefinitionNameLike: 'string',
    taskDefinitionKeyIn: 'stringArray', taskDefinitionKeyLike: 'string', assigneeIn: 'stringArray', assigneeNotIn: 'stringArray', owner: 'string',
    nameNotEqual: 'string', nameNotLike: 'string', description: 'string', descriptionLike: 'string',
    priority: 'integer', maxPriority: 'integer', minPriority: 'integer',
    dueDate: 'date', dueAfter: 'date', dueBefore: 'date', withoutDueDate: 'boolean',
    followUpDate: 'date', followUpAfter: 'date', followUpBefore: 'date', followUpBeforeOrNotExistent: 'date',
    createdOn: 'date', createdAfter: 'date', createdBefore: 'date', updatedAfter: 'date',
    // Camunda's deprecated spellings of dueDate, followUpDate and createdOn.
    due: 'date', followUp: 'date', created: 'date', withCommentAttachmentInfo: 'boolean', delegationState: 'string',
    candidateGroups: 'stringList', withCandidateGroups: 'boolean', withoutCandidateGroups: 'boolean', withCandidateUsers: 'boolean',
    withoutCandidateUsers: 'boolean', includeAssignedTasks: 'boolean', involvedUser: 'string', activityInstanceIdIn: 'stringArray',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean', parentTaskId: 'string',
  },
  sortBy: [
    'id', 'name', 'nameCaseInsensitive', 'assignee', 'created', 'dueDate', 'followUpDate', 'priority', 'instanceId', 'executionId',
    'description', 'lastUpdated', 'tenantId',
  ],
  variableSortBy: ['processVariable', 'executionVariable', 'taskVariable'],
  unsupported: [
    'caseInstanceId', 'caseInstanceBusinessKey', 'caseInstanceBusinessKeyLike', 'caseDefinitionId', 'caseDefinitionKey', 'caseDefinitionName',
    'caseDefinitionNameLike', 'caseExecutionId', 'caseInstanceVariables',
  ],
};
/** Criteria carried as variable conditions: `name_op_value` lists in the query string, `{name, operator, value}` objects in a body. */
// Camunda's TaskQueryDto: only process variables also by notLike.
const VARIABLE_CRITERIA = { taskVariables: variableRule('task variable'), processVariables: variableRule('process variable', [...COMPARISONS, 'notLike']) };

/**
 * The `…Expression` criteria of a query: kept for the engine to evaluate in a stored query (a
 * filter's); an ad-hoc query with one is Camunda's AdhocQueryValidator failure.
 */
function expressionsOf(source: Record<string, unknown>, stored: boolean): TaskQuery['expressions'] {
  const found = Object.keys(TASK_QUERY_EXPRESSIONS).filter((key) => source[key] !== undefined && source[key] !== null) as TaskQueryExpression[];
  if (found.length === 0) return undefined;
  if (!stored) {
    throw new BadUserRequestException('Expressions are forbidden in adhoc queries. This behavior can be toggled in the process engine configuration');
  }
  return Object.fromEntries(found.map((key) => [key, String(Array.isArray(source[key]) ? (source[key] as unknown[])[0] : source[key])]));
}

/** GET /task and /task/count: the query string's criteria, sorting and paging. */
function taskQueryFromString(query: Record<string, unknown>): TaskQuery {
  expressionsOf(query, false);
  return checkedTaskQuery({ ...parseListQuery<TaskQuery>(query, TASK_QUERY), ...variableCriteria(query, VARIABLE_CRITERIA, 'queryString') });
}

/** POST /task and /task/count: a TaskQueryDto body, paging in the query string. */
function taskQueryFromBody(body: Record<string, unknown>, query: Record<string, unknown>): TaskQuery {
  return { ...taskQueryDto(body, false), ...parsePage(query) };
}

/**
 * A TaskQueryDto object (a POST /task body, a filter's saved query or its extension); `stored`
 * keeps `…Expression` criteria for the engine, which an ad-hoc query may not have.
 */
export function taskQueryDto(body: Record<string, unknown>, stored: boolean): TaskQuery {
  const expressions = expressionsOf(body, stored);
  const parsed: TaskQuery = { ...parseBodyQuery<TaskQuery>(body, TASK_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body') };
  // Camunda builds or-queries as plain TaskQueryImpls, without the query validators: expressions pass there.
  if (body.orQueries !== undefined && body.orQueries !== null) parsed.orQueries = orQueriesFrom(body.orQueries, (each) => taskQueryDto(each, true));
  return checkedTaskQuery(expressions ? { ...parsed, expressions } : parsed);
}

/** A task of a list: Camunda's TaskDto, or TaskWithAttachmentAndCommentDto when the query asked withCommentAttachmentInfo. */
const listDto = (task: Task) =>
  task.commentAttachmentInfo ? { ...toTaskDto(task), attachment: task.commentAttachmentInfo.attachment, comment: task.commentAttachmentInfo.comment } : toTaskDto(task);

/**
 * The fields of Camunda's TaskDto.updateTask, every one set (priority 0 when absent). Trellis has no
 * case instances: a `caseInstanceId` is refused.
 */
function taskFields(body: Record<string, unknown>, { due, followUp }: ReturnType<typeof taskDates>) {
  if (text(body.caseInstanceId) !== null) throw new InvalidRequestException(400, "Trellis does not support setting 'caseInstanceId' of a task");
  return {
    name: text(body.name),
    description: text(body.description),
    priority: integer(body.priority) ?? 0,
    assignee: text(body.assignee),
    owner: text(body.owner),
    delegationState: delegationStateOf(body.delegationState),
    due,
    followUp,
    tenantId: text(body.tenantId),
  };
}

/** A TaskDto's due and follow-up dates. */
function taskDates(body: Record<string, unknown>) {
  return { due: dateValue(body.due), followUp: dateValue(body.followUp) };
}

const isFormFieldError = (error: unknown) => error instanceof FormFieldValidationException;

/** Camunda's DelegationStateConverter: PENDING or RESOLVED, in any case; the deprecated date spellings as their names. */
function checkedTaskQuery(given: TaskQuery): TaskQuery {
  const { due, followUp, created, ...rest } = given as TaskQuery & { due?: Date; followUp?: Date; created?: Date };
  const query: TaskQuery = {
    ...rest,
    ...(rest.dueDate ?? due ? { dueDate: rest.dueDate ?? due } : {}),
    ...(rest.followUpDate ?? followUp ? { followUpDate: rest.followUpDate ?? followUp } : {}),
    ...(rest.createdOn ?? created ? { createdOn: rest.createdOn ?? created } : {}),
  };
  if (query.delegationState === undefined) return query;
  const state = String(query.delegationState).toUpperCase();
  if (state !== 'PENDING' && state !== 'RESOLVED') {
    throw new InvalidRequestException(400, `Valid values for property 'delegationState' are 'PENDING' or 'RESOLVED', but was '${query.delegationState}'`);
  }
  return { ...query, delegationState: state };
}

/**
 * The core of the Task group: query, get, claim, unclaim, assignee, delegate, resolve, complete,
 * forms (key, variables, submit), variables and local variables, identity links.
 */
export function taskRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  // Camunda's TaskRestServiceImpl.getTasks: JSON, or HAL (Tasklist's) when asked for.
  router.get('/task', async (ctx) => {
    const query = taskQueryFromString(ctx.query);
    if (taskListVariant(ctx) === 'json') {
      ctx.body = (await engine.task.findTasks(query)).map(listDto);
      return;
    }
    const tasks = await engine.task.findTasks(query);
    const count = await engine.task.countTasks(countCriteria(query));
    sendHal(ctx, (await halTaskList(engine, tasks, count)).list);
  });

  router.get('/task/count', async (ctx) => {
    ctx.body = { count: await engine.task.countTasks(countCriteria(taskQueryFromString(ctx.query))) };
  });

  // Camunda's TaskReportResourceImpl: JSON, or CSV when asked for.
  router.get('/task/report/candidate-group-count', async (ctx) => {
    const mediaType = ctx.accepts(REPORT_MEDIA_TYPES);
    if (!mediaType) throw new InvalidRequestException(406, 'No acceptable content-type found');
    const counts = await engine.task.countByCandidateGroup();
    if (mediaType === 'application/json') {
      ctx.body = counts.map(({ groupName, taskCount }) => ({ groupName, taskCount }));
      return;
    }
    ctx.body = ['CANDIDATE_GROUP_NAME,TASK_COUNT', ...counts.map(({ groupName, taskCount }) => `${groupName},${taskCount}`)].join('\n');
    ctx.set('Content-Type', mediaType);
    ctx.set('Content-Disposition', attachmentDisposition('task-count-by-candidate-group.csv'));
  });

  router.post('/task', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    ctx.body = (await engine.task.findTasks(taskQueryFromBody(body, ctx.query))).map(listDto);
  });

  router.post('/task/count', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    ctx.body = { count: await engine.task.countTasks(countCriteria(taskQueryFromBody(body, ctx.query))) };
  });

  // Camunda's TaskRestServiceImpl.createTask: a task without a process, every field of the body
  // (priority 0 when it has none, as Java's int), 204.
  router.post('/task/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // The dates bind with the body; CREATE is checked (taskService.newTask) before the other fields are read.
    const dates = taskDates(body);
    await engine.task.newTask();
    const fields = taskFields(body, dates);
    try {
      await engine.task.createTask({ id: text(body.id), ...fields, parentTaskId: text(body.parentTaskId) });
    } catch (error) {
      if (error instanceof NotValidException) throw new InvalidRequestException(400, `Could not save task: ${error.message}`);
      throw error;
    }
    ctx.status = 204;
  });

  // Camunda's TaskResourceImpl.deleteTask: only a task without a process; an unknown one is no error.
  router.delete('/task/:id', async (ctx) => {
    await engine.task.deleteTask(ctx.params.id);
    ctx.status = 204;
  });

  // Camunda's TaskResourceImpl.getTask: JSON or (Tasklist's) HAL, by the Accept header; withCommentAttachmentInfo
  // (a query parameter the 7.22 document leaves out) adds whether the task has comments and attachments.
  router.get('/task/:id', async (ctx) => {
    const variant = taskListVariant(ctx);
    const task = jaxRsFlag(ctx.query, 'withCommentAttachmentInfo', false)
      ? ((await engine.task.findTasks({ taskId: ctx.params.id, withCommentAttachmentInfo: true }))[0] ?? null)
      : await engine.task.getTask(ctx.params.id);
    if (!task) throw new InvalidRequestException(404, `No matching task with id ${ctx.params.id}`);
    if (variant === 'hal') sendHal(ctx, await halTaskWithLinks(engine, task));
    else ctx.body = listDto(task);
  });

  // Camunda's TaskResourceImpl.updateTask: the task as the caller may read it, then every field of the body.
  router.put('/task/:id', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // The dates convert as the body is read, before the task is looked for.
    const dates = taskDates(body);
    const task = await engine.task.getTask(ctx.params.id);
    if (!task) throw new InvalidRequestException(404, `No matching task with id ${ctx.params.id}`);
    // TaskDto.updateTask sets the assignee on the task it found (a suspended one refuses) before it reads the delegation state.
    if (task.suspended) throw suspendedEntity('task', task.id);
    await engine.task.updateTask(ctx.params.id, { ...taskFields(body, dates), parentTaskId: text(body.parentTaskId) });
    ctx.status = 204;
  });

  router.post('/task/:id/claim', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's TaskResourceImpl passes engine errors on: an unknown task is ClaimTaskCmd's NullValueException (500), and so on.
    await engine.task.claim(ctx.params.id, text(body.userId));
    ctx.status = 204;
  });

  router.post('/task/:id/unclaim', async (ctx) => {
    await engine.task.setAssignee(ctx.params.id, null);
    ctx.status = 204;
  });

  router.post('/task/:id/assignee', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await engine.task.setAssignee(ctx.params.id, text(body.userId));
    ctx.status = 204;
  });

  router.post('/task/:id/complete', async (ctx) => {
    const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const prefix = `Cannot complete task ${ctx.params.id}`;
    const variables = variablesFromDto(body.variables, prefix);
    // A form field refusing a value is TaskResourceImpl's 400 (an unknown or suspended task a 500).
    const result = await asRestException(prefix, () => engine.task.complete(ctx.params.id, variables), isFormFieldError);
    if (flag(body.withVariablesInReturn)) ctx.body = variablesToDto(result, false);
    else ctx.status = 204;
  });

  // The Task Attachment group (Camunda's TaskAttachmentResourceImpl): history, so the task may have
  // ended; without history the list is empty and everything else refused.
  const historyEnabled = () => engine.config.historyLevel !== 'none';
  const ensureHistoryEnabled = (status: 403 | 404) => {
    if (!historyEnabled()) throw new InvalidRequestException(status, 'History is not enabled');
  };
  /** Camunda looks the task up in history, as the caller may read it. */
  const ensureTaskExists = async (taskId: string, status: 400 | 404) => {
    if ((await engine.history.tasks.countTasks({ taskId })) === 0) throw new InvalidRequestException(status, `No task found for task id ${taskId}`);
  };

  router.get('/task/:id/attachment', async (ctx) => {
    if (!historyEnabled()) {
      ctx.body = [];
      return;
    }
    await ensureTaskExists(ctx.params.id, 404);
    ctx.body = (await engine.task.getTaskAttachments(ctx.params.id)).map((attachment) => toAttachmentDto(attachment));
  });

  router.get('/task/:id/attachment/:attachmentId', async (ctx) => {
    const { id, attachmentId } = ctx.params;
    ensureHistoryEnabled(404);
    const attachment = await engine.task.getTaskAttachment(id, attachmentId);
    if (!attachment) throw new InvalidRequestException(404, `Task attachment with id ${attachmentId} does not exist for task id '${id}'.`);
    ctx.body = toAttachmentDto(attachment);
  });

  router.get('/task/:id/attachment/:attachmentId/data', async (ctx) => {
    const { id, attachmentId } = ctx.params;
    ensureHistoryEnabled(404);
    const content = await engine.task.getTaskAttachmentContent(id, attachmentId);
    if (!content) throw new InvalidRequestException(404, `Attachment content for attachment with id '${attachmentId}' does not exist for task id '${id}'.`);
    ctx.set('Content-Type', 'application/octet-stream');
    ctx.body = content;
  });

  router.delete('/task/:id/attachment/:attachmentId', async (ctx) => {
    const { id, attachmentId } = ctx.params;
    ensureHistoryEnabled(403);
    try {
      await engine.task.deleteTaskAttachment(id, attachmentId);
    } catch (error) {
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      throw new InvalidRequestException(404, `Deletion is not possible. No attachment exists for task id '${id}' and attachment id '${attachmentId}'.`);
    }
    ctx.status = 204;
  });

  router.post('/task/:id/attachment/create', async (ctx) => {
    const id = ctx.params.id;
    // The body is read first (Camunda's resource receives it parsed).
    const form = await readMultipart(ctx, rest.bodyLimit);
    ensureHistoryEnabled(403);
    await ensureTaskExists(id, 400);
    const content = form.files.find((part) => part.fieldName === 'content')?.bytes ?? (form.fields.has('content') ? Buffer.from(form.fields.get('content')!, 'utf8') : null);
    const url = form.fields.get('url') ?? null;
    if (content === null && url === null) throw new InvalidRequestException(400, 'No content or url to remote content exists to create the task attachment.');
    const attachment = await engine.task.createAttachment(id, {
      name: form.fields.get('attachment-name') ?? null,
      description: form.fields.get('attachment-description') ?? null,
      type: form.fields.get('attachment-type') ?? null,
      url,
      content,
    });
    ctx.body = toAttachmentDto(attachment, selfLink(baseUrlOf(ctx), `/task/${id}/attachment/${attachment.id}`));
  });

  // Camunda's TaskCommentResourceImpl: comments are history (the task may have ended), looked up as the caller may read it.
  router.get('/task/:id/comment', async (ctx) => {
    if (!historyEnabled()) {
      ctx.body = [];
      return;
    }
    await ensureTaskExists(ctx.params.id, 404);
    ctx.body = (await engine.task.getTaskComments(ctx.params.id)).map((comment) => toCommentDto(comment));
  });

  router.get('/task/:id/comment/:commentId', async (ctx) => {
    const { id, commentId } = ctx.params;
    ensureHistoryEnabled(404);
    const comment = (await engine.task.getTaskComments(id)).find((each) => each.id === commentId);
    if (!comment) throw new InvalidRequestException(404, `Task comment with id ${commentId} does not exist for task id '${id}'.`);
    ctx.body = toCommentDto(comment);
  });

  router.post('/task/:id/comment/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    ensureHistoryEnabled(403);
    await ensureTaskExists(ctx.params.id, 400);
    try {
      // The comment's process instance is the one the body names (Camunda's CommentDto), none without.
      const comment = await engine.task.createComment(ctx.params.id, text(body.message), text(body.processInstanceId));
      ctx.body = toCommentDto(comment, selfLink(baseUrlOf(ctx), `/task/${ctx.params.id}/comment/${comment.id}`));
    } catch (error) {
      // Camunda answers every engine refusal here with 400 "Not enough parameters submitted", the refusal its cause (its code).
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      throw new InvalidRequestException(400, 'Not enough parameters submitted', 'InvalidRequestException', error.code);
    }
  });

  // Camunda's TaskResourceImpl.handleBpmnError / handleEscalation: an unknown task is a 404, a bad request a 400, both
  // RestException with the engine's message and code.
  router.post('/task/:id/bpmnError', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda converts the variables inside the call without a prefix of its own.
    const variables = variablesFromDto(body.variables);
    await throwing(() => engine.task.handleBpmnError(ctx.params.id, text(body.errorCode), text(body.errorMessage), variables));
    ctx.status = 204;
  });

  router.post('/task/:id/bpmnEscalation', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const variables = variablesFromDto(body.variables);
    await throwing(() => engine.task.handleEscalation(ctx.params.id, text(body.escalationCode), variables));
    ctx.status = 204;
  });

  router.post('/task/:id/delegate', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await engine.task.delegateTask(ctx.params.id, text(body.userId));
    ctx.status = 204;
  });

  router.post('/task/:id/resolve', async (ctx) => {
    const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const variables = variablesFromDto(body.variables, `Cannot resolve task ${ctx.params.id}`);
    await engine.task.resolveTask(ctx.params.id, variables);
    ctx.status = 204;
  });

  router.post('/task/:id/submit-form', async (ctx) => {
    const id = ctx.params.id;
    const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const variables = variablesFromDto(body.variables, `Cannot submit task form ${id}`);
    const result = await asRestException(`Cannot submit task form ${id}`, () => engine.task.submitTaskForm(id, variables), isFormFieldError);
    if (flag(body.withVariablesInReturn)) ctx.body = variablesToDto(result, false);
    else ctx.status = 204;
  });

  router.get('/task/:id/form', async (ctx) => {
    const id = ctx.params.id;
    let form;
    try {
      form = await engine.task.getTaskFormData(id);
    } catch (error) {
      // Camunda's TaskResourceImpl.getForm: any engine failure but a denial is a 400.
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      throw new InvalidRequestException(400, `Cannot get form for task ${id}`, 'RestException', error.code);
    }
    // Generated forms: Camunda points the tasklist at the rendered-form endpoint. contextPath: a
    // process application's path, which Trellis has none of.
    const key = form.formKey || !form.hasFormFields ? form.formKey : `embedded:engine://engine/:engine/task/${id}/rendered-form`;
    ctx.body = { key, camundaFormRef: toCamundaFormRefDto(form.camundaFormRef), contextPath: null };
  });

  // Camunda's TaskResourceImpl.getDeployedForm: the file as HTML (XHTML) or, for Camunda Forms, JSON.
  router.get('/task/:id/deployed-form', async (ctx) => {
    try {
      const form = await engine.task.getDeployedTaskForm(ctx.params.id);
      sendDeployedForm(ctx, form);
    } catch (error) {
      if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message);
      if (error instanceof AuthorizationException) throw new InvalidRequestException(403, error.message);
      if (error instanceof BadUserRequestException || error instanceof NullValueException) throw new InvalidRequestException(400, error.message);
      throw error;
    }
  });

  router.get('/task/:id/rendered-form', async (ctx) => {
    const id = ctx.params.id;
    const html = await engine.task.getRenderedTaskForm(id);
    if (html === null) throw new InvalidRequestException(404, `No matching rendered form for task with the id ${id} found.`);
    ctx.type = XHTML;
    ctx.body = html;
  });

  router.get('/task/:id/form-variables', async (ctx) => {
    // A JAX-RS String parameter: the first of several.
    const given = Array.isArray(ctx.query.variableNames) ? ctx.query.variableNames[0] : ctx.query.variableNames;
    const names = given === undefined ? undefined : given.split(',').filter((name) => name !== '');
    const variables = await engine.task.getTaskFormVariables(ctx.params.id, names);
    ctx.body = variablesToDto(variables, jaxRsFlag(ctx.query, 'deserializeValues', true));
  });

  // …/variables: visible from the task, written with setVariable semantics; …/localVariables: the task's own.
  variableRoutes(router, rest, '/task/:id/variables', 'task', {
    all: (id) => engine.task.getVariables(id),
    update: (id, modifications, deletions, operation) => engine.task.updateVariables(id, modifications, deletions, operation),
    remove: (id, names) => engine.task.removeVariables(id, names),
  });
  variableRoutes(router, rest, '/task/:id/localVariables', 'task', {
    all: (id) => engine.task.getVariablesLocal(id),
    update: (id, modifications, deletions, operation) => engine.task.updateVariablesLocal(id, modifications, deletions, operation),
    remove: (id, names) => engine.task.removeVariablesLocal(id, names),
  });

  router.get('/task/:id/identity-links', async (ctx) => {
    // A JAX-RS String parameter: the first of several.
    const type = (Array.isArray(ctx.query.type) ? ctx.query.type[0] : ctx.query.type) ?? null;
    const links = await engine.task.getIdentityLinks(ctx.params.id);
    ctx.body = links.filter((link) => type === null || link.type === type).map((link) => ({ userId: link.userId, groupId: link.groupId, type: link.type }));
  });

  for (const [path, add] of [['/task/:id/identity-links', true], ['/task/:id/identity-links/delete', false]] as const) {
    router.post(path, async (ctx) => {
      const body = await readJsonObject(ctx, rest.bodyLimit);
      const userId = text(body.userId);
      const groupId = text(body.groupId);
      const type = text(body.type);
      // Camunda's IdentityLinkDto.validate.
      if (userId !== null && groupId !== null) throw new InvalidRequestException(400, 'Identity Link requires userId or groupId, but not both.');
      if (userId === null && groupId === null) throw new InvalidRequestException(400, 'Identity Link requires userId or groupId.');
      const id = ctx.params.id;
      if (userId !== null) await (add ? engine.task.addUserIdentityLink(id, userId, type) : engine.task.deleteUserIdentityLink(id, userId, type));
      else await (add ? engine.task.addGroupIdentityLink(id, groupId, type) : engine.task.deleteGroupIdentityLink(id, groupId, type));
      ctx.status = 204;
    });
  }
}

/** A BPMN error or escalation thrown from a task: NotFoundException → 404, any other BadUserRequestException → 400, as RestException. */
async function throwing(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof BadUserRequestException) throw new InvalidRequestException(error instanceof NotFoundException ? 404 : 400, error.message, 'RestException', error.code);
    throw error;
  }
}

/** Camunda's DelegationStateConverter: PENDING or RESOLVED in any case; null when not given. */
function delegationStateOf(value: unknown): DelegationState | null {
  const given = text(value);
  if (given === null) return null;
  const state = given.toUpperCase();
  if (state !== 'PENDING' && state !== 'RESOLVED') {
    throw new InvalidRequestException(400, `Valid values for property 'delegationState' are 'PENDING' or 'RESOLVED', but was '${given}'`);
  }
  return state;
}
