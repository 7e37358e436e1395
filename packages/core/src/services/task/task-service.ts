import { inject, injectable } from 'inversify';
import { ANY, Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException, NotValidException, NullValueException, ProcessEngineException, suspendedEntity, TaskAlreadyClaimedException } from '../../errors/exceptions.js';
import { engineMessage } from '../../errors/engine-message.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import type { FlowElementModel } from '../../bpmn/index.js';
import type { Comment } from '../../persistence/repositories/comment-repository.js';
import type { Attachment } from '../../persistence/repositories/attachment-repository.js';
import type { TaskReadFilter } from '../../persistence/repositories/task-repository.js';
import { evaluateFormFields, formDeclarationsOf, formRefAttributesOf, formValueFrom, formValueOf, javaInteger, renderFormFields, submitFormVariables, type CamundaFormRef } from '../process-definition/start-form.js';
import { beansContext, variablesOver } from '../process-definition/form-scope.js';
import { readFormProperties } from '../process-definition/form-properties.js';
import { deployedForm, type DeployedForm } from '../process-definition/start-form-service.js';
import { grantTaskDefault, grantTaskDefaults } from '../authorization/default-authorizations.js';
import { rootInstanceOf } from '../../runtime/root-instance.js';
import type { Execution } from '../../runtime/execution.js';
import { withErrorPropagation } from '../../runtime/bpmn-error.js';
import type { ProcessRunner } from '../../runtime/process-runner.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { evaluateOf } from '../../runtime/expressions/conditions.js';
import { isExpression, type ExpressionContext } from '../../runtime/expressions/index.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { TASK_PRIORITY_NORMAL, type NewTask, type Task, type TaskIdentityLink, type TaskQuery, type TaskUpdate } from './task.js';
import { resolveQueryExpressions } from './query-expressions.js';
import { HistoryWriter } from '../../history/history-writer.js';
import { TaskHistory } from '../../history/task-history.js';
import { removeTasks } from './task-removal.js';
import { fireTaskListeners, hasTaskListeners, listenerChanges } from '../../runtime/task-listeners.js';
import { completeProcessTask } from '../../runtime/task-completion.js';
import { updateTask } from './task-update.js';
import { formFieldsSubmitted } from '../../history/variable-history.js';
import { writeTaskLocals, type StoredTaskLocals } from './task-local-variables.js';
import { OperationLogEntries, type VariableOperation } from '../../history/user-operation-entries.js';

/** What GET /task/{id}/form needs: the form key and where the task comes from. */
export interface TaskFormData {
  formKey: string | null;
  processDefinitionId: string | null;
  /** The user task declares camunda:formData fields (a generated form: GET /task/{id}/rendered-form). */
  hasFormFields: boolean;
  /** The user task's camunda:formRef (a Camunda Form), if it has one. */
  camundaFormRef: CamundaFormRef | null;
}

/**
 * User tasks (Camunda's TaskService): queries, assignment, delegation, completion, variables
 * (task-local, and those visible from the task's execution) and identity links.
 */
@injectable()
export class TaskService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  findTasks(query: TaskQuery = {}): Promise<Task[]> {
    return this.commands.run('TaskQuery', async (ctx) => {
      const tasks = await ctx.tasks.find(ctx.tenantCheck.query(resolveQueryExpressions(ctx, query)), await readableTasks(ctx));
      return this.withForms(ctx, tasks);
    });
  }

  countTasks(query: TaskQuery = {}): Promise<number> {
    return this.commands.run('TaskQuery', async (ctx) => ctx.tasks.count(ctx.tenantCheck.query(resolveQueryExpressions(ctx, query)), await readableTasks(ctx)));
  }

  getTask(id: string): Promise<Task | null> {
    return this.commands.run('TaskQuery', async (ctx) => {
      const [task] = await ctx.tasks.find(ctx.tenantCheck.query({ taskId: id }), await readableTasks(ctx));
      return task ? (await this.withForms(ctx, [task]))[0]! : null;
    });
  }

  /** Camunda's TaskReport.taskCountByCandidateGroup: needs READ on every task (ANY). */
  countByCandidateGroup(): Promise<{ groupName: string | null; taskCount: number }[]> {
    return this.commands.run('TaskCountByCandidateGroupCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'READ', resource: Resources.TASK, resourceId: ANY });
      return ctx.tasks.countByCandidateGroup(ctx.tenantCheck.query({}));
    });
  }

  // --- standalone tasks --------------------------------------------------------------------------

  /** Camunda's newTask (CreateTaskCmd): only the check for CREATE on tasks, before a new task's fields are read. */
  newTask(): Promise<void> {
    return this.commands.run('CreateTaskCmd', (ctx) => ctx.authz.check({ permission: 'CREATE', resource: Resources.TASK }));
  }

  /**
   * Camunda's newTask + SaveTaskCmd for a task without a process (REST's POST /task/create): needs
   * CREATE on tasks; a sub-task names an existing, active parent and takes its tenant. The task's
   * assignee and owner get their default authorizations; history and the operation log as Camunda.
   */
  createTask(input: NewTask): Promise<Task> {
    return this.commands.run('SaveTaskCmd', async (ctx) => {
      const givenId = input.id ?? null;
      let tenantId = input.tenantId ?? null;
      // Camunda's checkCreateTask: the tenant given (before any parent's is taken; so 'null' as the id when
      // none was given), then CREATE.
      ctx.tenantCheck.require(tenantId, `create the task '${givenId}'`);
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.TASK });
      if (input.parentTaskId) {
        const parent = await ctx.tasks.findById(input.parentTaskId);
        if (!parent) throw new NotValidException(`Parent task with id '${input.parentTaskId}' does not exist: parentTask is null`);
        // Camunda names the new task here, by the id it was given (null when none was).
        if (parent.suspended) throw suspendedEntity('parent task', String(givenId));
        if (tenantId !== null && tenantId !== parent.tenantId) {
          throw new ProcessEngineException(
            engineMessage('03', '073', `Cannot set different tenantId on subtask than on parent Task. Parent taskId: '${parent.id}', tenantId: '${parent.tenantId}', tenant id to set '${tenantId}'`),
          );
        }
        tenantId = parent.tenantId;
      }
      if (givenId === ANY) throw new ProcessEngineException(`Entity Task[${ANY}] has an invalid id: id cannot be ${ANY}. ${ANY} is a reserved identifier.`);
      if (givenId !== null && (await ctx.tasks.findById(givenId))) {
        throw new ProcessEngineException(engineMessage('03', '004', `Exception while executing Database Operation 'INSERT TaskEntity[${givenId}]': a task with id '${givenId}' exists already`));
      }
      const task: Task = {
        id: givenId ?? ctx.ids.next(),
        name: input.name ?? null,
        description: input.description ?? null,
        taskDefinitionKey: null,
        assignee: input.assignee ?? null,
        owner: input.owner ?? null,
        priority: input.priority ?? TASK_PRIORITY_NORMAL,
        due: input.due ?? null,
        followUp: input.followUp ?? null,
        created: ctx.clock.now(),
        processInstanceId: null,
        executionId: null,
        processDefinitionId: null,
        activityInstanceId: null,
        formKey: null,
        suspended: false,
        tenantId,
        delegationState: input.delegationState ?? null,
        parentTaskId: input.parentTaskId ?? null,
      };
      const noCandidates = { users: [], groups: [] };
      await ctx.tasks.insert(task, noCandidates);
      // Camunda's SaveTaskCmd counts a new task as a flow node instance.
      ctx.afterCommit(() => this.env.metrics.mark('activity-instance-start'));
      await grantTaskDefaults(ctx, task, noCandidates);
      await TaskHistory.standaloneCreated(ctx, task);
      const blank = { ...task, name: null, description: null, assignee: null, owner: null, priority: TASK_PRIORITY_NORMAL, due: null, followUp: null, delegationState: null, parentTaskId: null };
      OperationLogEntries.taskChanged(ctx, 'Create', blank, {
        name: task.name,
        description: task.description,
        assignee: task.assignee,
        owner: task.owner,
        dueDate: task.due?.getTime() ?? null,
        followUpDate: task.followUp?.getTime() ?? null,
        priority: task.priority,
        parentTask: task.parentTaskId,
        delegation: task.delegationState,
      });
      return task;
    });
  }

  /**
   * Camunda's DeleteTaskCmd (REST's DELETE /task/{id}): a task without a process goes, with its
   * sub-tasks, its variables and links; its history stays, ended as 'deleted'. Needs DELETE on the
   * task. A task of a process instance cannot be deleted; an unknown id deletes nothing.
   */
  deleteTask(taskId: string): Promise<void> {
    return this.commands.run('DeleteTaskCmd', async (ctx) => {
      const task = await ctx.tasks.findById(taskId);
      if (!task) return;
      if (task.executionId !== null) throw new ProcessEngineException('The task cannot be deleted because is part of a running process');
      ctx.tenantCheck.require(task.tenantId, `delete the task '${task.id}'`);
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.TASK, resourceId: task.id });
      OperationLogEntries.task(ctx, 'Delete', task, [{ property: 'delete', orgValue: false, newValue: true }]);
      await removeTasks(ctx, [task], 'deleted');
    });
  }

  // --- assignment -------------------------------------------------------------------------------

  /**
   * Camunda's ClaimTaskCmd: claims for a user (a task the user holds already stays as it is; one
   * someone else holds is refused); without a user, unclaims.
   */
  claim(taskId: string, userId: string | null): Promise<void> {
    return this.commands.run('ClaimTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, WORK);
      if (userId !== null && task.assignee) {
        if (task.assignee !== userId) throw new TaskAlreadyClaimedException(task.id);
      } else ensureActive(task);
      OperationLogEntries.taskChanged(ctx, 'Claim', task, { assignee: userId });
      await updateAssignment(ctx, this.env, task, { assignee: userId });
    });
  }

  /** Sets (or, with null, clears: REST's unclaim) the assignee. Needs TASK_ASSIGN or UPDATE. */
  setAssignee(taskId: string, userId: string | null): Promise<void> {
    return this.commands.run('AssignTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTask(ctx, task, ASSIGN);
      ensureActive(task);
      OperationLogEntries.taskChanged(ctx, 'Assign', task, { assignee: userId });
      await updateAssignment(ctx, this.env, task, { assignee: userId });
    });
  }

  /** Sets (or clears) the owner. */
  setOwner(taskId: string, userId: string | null): Promise<void> {
    return this.commands.run('SetTaskOwnerCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTask(ctx, task, ASSIGN);
      ensureActive(task);
      OperationLogEntries.taskChanged(ctx, 'SetOwner', task, { owner: userId });
      await updateTask(ctx, task, { owner: userId });
      await taskUpdated(ctx, this.env, { ...task, owner: userId }, false);
    });
  }

  /**
   * Camunda's SaveTaskCmd for a task that exists (REST's PUT /task/{id}): every field as given, so
   * what is left out is cleared. Needs TASK_ASSIGN or UPDATE; the tenant cannot change; an Update
   * entry in the operation log per property that really changed.
   */
  updateTask(taskId: string, update: TaskUpdate): Promise<void> {
    return this.commands.run('SaveTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTask(ctx, task, ASSIGN);
      if (task.tenantId !== update.tenantId) {
        throw new ProcessEngineException(engineMessage('03', '072', `Cannot change tenantId of Task '${task.id}'. Current tenant id '${task.tenantId}', Tenant id to set '${update.tenantId}'`));
      }
      // TaskEntity.setAssignee checks first, and the update always sets the assignee.
      ensureActive(task);
      const { name, description, priority, assignee, owner, delegationState, due, followUp, parentTaskId } = update;
      OperationLogEntries.taskChanged(ctx, 'Update', task, {
        name,
        description,
        priority,
        assignee,
        owner,
        delegation: delegationState,
        dueDate: due?.getTime() ?? null,
        followUpDate: followUp?.getTime() ?? null,
        parentTask: parentTaskId,
      });
      await updateAssignment(ctx, this.env, task, { name, description, priority, assignee, owner, delegationState, due, followUp, ...(parentTaskId !== undefined ? { parentTaskId } : {}) });
    });
  }

  /** Camunda's TaskEntity.delegate: PENDING, the assignee becomes the owner unless there is one, the user the assignee. */
  delegateTask(taskId: string, userId: string | null): Promise<void> {
    return this.commands.run('DelegateTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, ASSIGN);
      ensureActive(task);
      OperationLogEntries.taskChanged(ctx, 'Delegate', task, { delegation: 'PENDING', owner: task.owner ?? task.assignee, assignee: userId });
      await updateAssignment(ctx, this.env, task, { delegationState: 'PENDING', owner: task.owner ?? task.assignee, assignee: userId });
    });
  }

  /**
   * Camunda's ResolveTaskCmd (a CompleteTaskCmd that resolves instead of completing): sets the
   * variables like complete does, then RESOLVED and the assignee back to the owner. The task stays.
   */
  resolveTask(taskId: string, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('ResolveTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, WORK);
      const runner = await this.setExecutionVariables(ctx, task, variables);
      ensureActive(task);
      OperationLogEntries.taskChanged(ctx, 'Resolve', task, { delegation: 'RESOLVED', assignee: task.owner });
      await updateAssignment(ctx, this.env, task, { delegationState: 'RESOLVED', assignee: task.owner });
      if (runner) await completeRun(ctx, runner);
    });
  }

  // --- completion --------------------------------------------------------------------------------

  /**
   * Completes the task with variables (set from its execution the way setVariable does) and moves
   * the instance on; answers the process instance's variables afterwards (Camunda's snapshot of them).
   */
  complete(taskId: string, variables: Record<string, TypedValue> = {}): Promise<Record<string, TypedValue>> {
    return this.commands.run('CompleteTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, WORK);
      const runner = await this.setExecutionVariables(ctx, task, variables);
      return this.completeLoaded(ctx, task, runner, variables);
    });
  }

  /**
   * Camunda's AddCommentCmd: a comment by the current user on a task (which may have ended: comments
   * are history) and the process instance given — by default the running task's. No permission is
   * checked; a running task gets its update event.
   */
  createComment(taskId: string, message: string | null, processInstanceId?: string | null): Promise<Comment> {
    return this.commands.run('AddCommentCmd', async (ctx) => {
      if (message === null || message === undefined) throw new NullValueException('Message is null');
      const task = await ctx.tasks.findById(taskId);
      const comment: Omit<Comment, 'removalTime'> = {
        id: ctx.ids.next(),
        userId: ctx.authentication?.userId ?? null,
        taskId,
        processInstanceId: processInstanceId === undefined ? (task?.processInstanceId ?? null) : processInstanceId,
        // Camunda's AddCommentCmd: the root of the task's execution (none for a task that is gone).
        rootProcessInstanceId: task ? await rootInstanceOf(ctx, task.processInstanceId) : null,
        time: ctx.clock.now(),
        message,
        tenantId: task?.tenantId ?? null,
      };
      await ctx.comments.insert(comment);
      if (task) await taskUpdated(ctx, this.env, task, false);
      return (await ctx.comments.findById(comment.id))!;
    });
  }

  /**
   * Camunda's CreateAttachmentCmd for a task: a link (`url`) or uploaded `content`. The task may have
   * ended (attachments are history); the attachment goes with its process instance's history.
   * Logged (AddAttachment) while the task runs. As in Camunda, the command checks no permission.
   */
  createAttachment(taskId: string, attachment: NewAttachment): Promise<Attachment> {
    return this.commands.run('CreateAttachmentCmd', async (ctx) => {
      const task = await ctx.tasks.findById(taskId);
      const ended = task ? undefined : await ctx.trx.selectFrom('trellis_hi_taskinst').select(['proc_inst_id', 'root_proc_inst_id']).where('id', '=', taskId).executeTakeFirst();
      if (!task && !ended) throw new NullValueException(`Cannot find task with id ${taskId}: task is null`);
      const processInstanceId = task ? task.processInstanceId : ended!.proc_inst_id;
      const id = ctx.ids.next();
      await ctx.taskAttachments.insert(
        {
          id,
          name: attachment.name ?? null,
          description: attachment.description ?? null,
          type: attachment.type ?? null,
          taskId,
          processInstanceId,
          rootProcessInstanceId: task ? await rootInstanceOf(ctx, processInstanceId) : ended!.root_proc_inst_id,
          url: attachment.content ? null : (attachment.url ?? null),
          createTime: ctx.clock.now(),
        },
        attachment.content ?? null,
      );
      if (task) OperationLogEntries.attachment(ctx, 'AddAttachment', task, attachment.name ?? null);
      if (task) await taskUpdated(ctx, this.env, task, false);
      return (await ctx.taskAttachments.findByTaskAndId(taskId, id))!;
    });
  }

  /** A task's attachments, oldest first (also of an ended task). */
  getTaskAttachments(taskId: string): Promise<Attachment[]> {
    return this.commands.run('GetTaskAttachmentsCmd', (ctx) => ctx.taskAttachments.findByTask(taskId));
  }

  /** One attachment of a task; null when the task has no such attachment. */
  getTaskAttachment(taskId: string, attachmentId: string): Promise<Attachment | null> {
    return this.commands.run('GetTaskAttachmentCmd', (ctx) => ctx.taskAttachments.findByTaskAndId(taskId, attachmentId));
  }

  /** The uploaded content of a task's attachment; null for a link or no such attachment. */
  getTaskAttachmentContent(taskId: string, attachmentId: string): Promise<Buffer | null> {
    return this.commands.run('GetTaskAttachmentContentCmd', (ctx) => ctx.taskAttachments.contentOf(taskId, attachmentId));
  }

  /** Camunda's DeleteAttachmentCmd for a task: NullValueException when the task has no such attachment; logged while the task runs. */
  deleteTaskAttachment(taskId: string, attachmentId: string): Promise<void> {
    return this.commands.run('DeleteAttachmentCmd', async (ctx) => {
      const attachment = await ctx.taskAttachments.findByTaskAndId(taskId, attachmentId);
      if (!attachment) throw new NullValueException(`No attachment exist for task id '${taskId} and attachmentId '${attachmentId}'.: attachment is null`);
      await ctx.taskAttachments.delete(attachmentId);
      const task = await ctx.tasks.findById(taskId);
      if (task) OperationLogEntries.attachment(ctx, 'DeleteAttachment', task, attachment.name);
      if (task) await taskUpdated(ctx, this.env, task, false);
    });
  }

  /** The comments of a task, newest first (Camunda's GetTaskCommentsCmd checks nothing; its REST resource asks the history first). */
  getTaskComments(taskId: string): Promise<Comment[]> {
    return this.commands.run('GetTaskCommentsCmd', (ctx) => ctx.comments.findByTask(taskId));
  }

  /** The comments on a process instance's tasks, newest first. */
  getProcessInstanceComments(processInstanceId: string): Promise<Comment[]> {
    // Camunda's GetProcessInstanceCommentsCmd checks nothing (its REST resource asks the history first).
    return this.commands.run('GetProcessInstanceCommentsCmd', (ctx) => ctx.comments.findByProcessInstance(processInstanceId));
  }

  /**
   * Camunda's HandleTaskBpmnErrorCmd: the task ends and its execution throws the BPMN error to the
   * nearest catching boundary event or event sub-process (uncaught, the path ends).
   */
  handleBpmnError(taskId: string, errorCode: string | null, errorMessage: string | null = null, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('HandleTaskBpmnErrorCmd', async (ctx) => {
      // Camunda's ensureNotEmpty: null, then blank.
      if (errorCode === null || errorCode === undefined) throw new BadUserRequestException('errorCode is null');
      if (errorCode.trim() === '') throw new BadUserRequestException('errorCode is empty');
      const { task, runner, execution } = await this.throwingTask(ctx, taskId, variables);
      await ctx.tasks.delete(task);
      runner.schedule(execution, () => runner.throwError(execution, errorCode, errorMessage));
      await completeRun(ctx, runner);
    });
  }

  /**
   * Camunda's HandleTaskEscalationCmd: the task's execution throws the escalation to the nearest
   * catching escalation event (boundary events on the task included). The task stays unless an
   * interrupting event takes it away; an escalation nothing catches fails the command.
   */
  handleEscalation(taskId: string, escalationCode: string | null, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('HandleTaskEscalationCmd', async (ctx) => {
      if (escalationCode === null || escalationCode === undefined) throw new BadUserRequestException('escalationCode is null');
      if (escalationCode.trim() === '') throw new BadUserRequestException('escalationCode is empty');
      const { runner, execution } = await this.throwingTask(ctx, taskId, variables);
      const activityId = execution.activityId;
      runner.schedule(execution, async () => {
        const { caught } = await runner.throwEscalation(execution, escalationCode);
        if (!caught) {
          throw new ProcessEngineException(
            engineMessage('02', '043', `Execution with id '${activityId}' throws an escalation event with escalationCode '${escalationCode}', but no escalation handler was defined. `),
          );
        }
      });
      await completeRun(ctx, runner);
    });
  }

  /** An active task of a process instance about to throw (a BPMN error, an escalation), the given variables set on its execution. */
  private async throwingTask(ctx: CommandContext, taskId: string, variables: Record<string, TypedValue>): Promise<{ task: Task; runner: ProcessRunner; execution: Execution }> {
    const task = await this.load(ctx, taskId);
    await checkTask(ctx, task, WORK);
    ensureActive(task);
    const runner = await this.setExecutionVariables(ctx, task, variables);
    const execution = runner?.tree.executions.get(task.executionId ?? '');
    if (!runner || !execution) throw new BadUserRequestException(`Task ${taskId} does not belong to a process instance`);
    return { task, runner, execution };
  }

  /**
   * Camunda's SubmitTaskFormCmd for tasks without form fields: every variable is set on the task
   * (task-local when it has one of the name, else up its scopes); a PENDING delegated task is
   * resolved, any other one completed. Answers the process instance's variables.
   */
  submitTaskForm(taskId: string, variables: Record<string, TypedValue> = {}): Promise<Record<string, TypedValue>> {
    return this.commands.run('SubmitTaskFormCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, WORK);
      const scope = await this.openScope(ctx, task);
      // Form fields of the task (camunda:formData) validate, convert and default what was submitted.
      const visible = visibleOf(task, scope);
      const expressions = variablesOver(visible, this.executionExpressions(task, scope));
      variables = submitFormVariables(await this.formOf(ctx, task), variables, { variable: (name) => visible[name], expressions });
      if (task.processInstanceId && task.executionId) await formFieldsSubmitted(ctx, { ...task, processInstanceId: task.processInstanceId, executionId: task.executionId, taskId: task.id }, variables);
      await this.write(ctx, task, scope, variables, [], false);
      if (task.delegationState === 'PENDING') {
        OperationLogEntries.taskChanged(ctx, 'Resolve', task, { delegation: 'RESOLVED', assignee: task.owner });
        await updateAssignment(ctx, this.env, task, { delegationState: 'RESOLVED', assignee: task.owner });
        if (scope.runner) await completeRun(ctx, scope.runner);
        return scope.runner ? scope.runner.variables.snapshot() : {};
      }
      return this.completeLoaded(ctx, task, scope.runner, variables);
    });
  }

  /**
   * The form key of GET /task/{id}/form; Camunda's checkReadTaskVariable: READ on the task or
   * READ_TASK on its definition (READ_VARIABLE / READ_TASK_VARIABLE with enforceSpecificVariablePermission).
   */
  getTaskFormData(taskId: string): Promise<TaskFormData> {
    return this.commands.run('GetTaskFormCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTask(ctx, task, readVariable(ctx));
      const [{ formKey, camundaFormRef = null }] = await this.withForms(ctx, [task]);
      const hasFormFields = (await this.formRead(ctx, task)).fields.length > 0;
      return { formKey, processDefinitionId: task.processDefinitionId, hasFormFields, camundaFormRef };
    });
  }

  /**
   * Camunda's GetDeployedTaskFormCmd: the deployed form the task's form key or camunda:formRef names
   * (see deployedForm); needs READ on the task or READ_TASK on its definition. A task without a
   * process definition has no form.
   */
  getDeployedTaskForm(taskId: string): Promise<DeployedForm> {
    return this.commands.run('GetDeployedTaskFormCmd', async (ctx) => {
      const task = await ctx.tasks.findById(taskId);
      if (!task) throw new NullValueException(`No task found for taskId '${taskId}': task is null`);
      await checkTask(ctx, task, READ);
      const { definition, element } = await this.elementOf(ctx, task);
      const camundaFormRef = await this.formRefOf(ctx, task, element);
      const { formKey } = await this.withFormKey(ctx, task);
      return deployedForm(ctx, definition?.deploymentId ?? '', { formKey: definition ? formKey : null, camundaFormRef });
    });
  }

  /** Camunda's GetRenderedTaskFormCmd: the generated HTML form of the task's form fields, then its readable form properties; null without either. */
  getRenderedTaskForm(taskId: string): Promise<string | null> {
    return this.commands.run('GetRenderedTaskFormCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'rendered');
      await checkTask(ctx, task, readVariable(ctx));
      // Camunda's GetRenderedTaskFormCmd: a task without a process has no task definition.
      if (!task.taskDefinitionKey) throw new NullValueException(`Task form definition for '${taskId}' not found: task.getTaskDefinition() is null`);
      const { fields, properties } = await this.formRead(ctx, task);
      return renderFormFields([...fields, ...properties]);
    });
  }

  /** The form declarations (camunda:formData fields, camunda:formProperty) of the task's user task element, from the model. */
  private async formOf(ctx: CommandContext, task: Task) {
    const { element } = await this.elementOf(ctx, task);
    return formDeclarationsOf(element);
  }

  /**
   * Camunda's DefaultTaskFormHandler.createTaskForm: the fields (labels and defaults evaluated) and
   * the readable form properties, read on the task's execution, not the task.
   */
  private async formRead(ctx: CommandContext, task: Task) {
    const { fields, properties } = await this.formOf(ctx, task);
    if (fields.length === 0 && properties.length === 0) return { fields: [], properties: [] };
    const scope = await this.openScope(ctx, task);
    const expressions = this.executionExpressions(task, scope);
    const variables = scope.runner && task.executionId ? scope.runner.variables.visible(task.executionId) : null;
    return { fields: evaluateFormFields(fields, expressions), properties: readFormProperties(properties, { variables, expressions }) };
  }

  /**
   * Camunda's TaskQueryImpl.initializeFormKeys (which REST's task lists, GET /task/{id} and filters
   * ask for): each task's form key and camunda:formRef evaluated as it is read (definitions and
   * models come from the engine's caches).
   */
  private async withForms(ctx: CommandContext, tasks: readonly Task[]): Promise<Task[]> {
    // One after the other: tasks of one instance share its loaded rows (openInstance) instead of racing to load them.
    const read: Task[] = [];
    for (const task of tasks) read.push({ ...(await this.withFormKey(ctx, task)), camundaFormRef: await this.formRefOf(ctx, task, (await this.elementOf(ctx, task)).element) });
    return read;
  }

  /**
   * Camunda's TaskEntity.initializeFormKey: the form key is kept as written and evaluated when read,
   * on the task's variables (its own over its execution's), so `forms/${name}.html` follows later
   * changes of `name`.
   */
  private async withFormKey(ctx: CommandContext, task: Task): Promise<Task> {
    if (task.formKey === null || !isExpression(task.formKey)) return task;
    const value = evaluateOf(task.formKey, await this.taskExpressions(ctx, task));
    return { ...task, formKey: value === null || value === undefined ? null : String(value) };
  }

  /**
   * Camunda's DefaultTaskFormHandler.createTaskForm for a camunda:formRef, which counts only without
   * a form key: its key and (binding `version`) version evaluated as the form key is; none when the
   * key evaluates to null.
   */
  private async formRefOf(ctx: CommandContext, task: Task, element: FlowElementModel | undefined): Promise<CamundaFormRef | null> {
    const ref = element && task.formKey === null ? formRefAttributesOf(element) : null;
    if (ref === null) return null;
    const { version } = ref;
    // Plain text needs no variables (the task's scope costs its instance's rows).
    if (!isExpression(ref.key) && (version === null || !isExpression(version))) {
      return { key: ref.key, binding: ref.binding, version: version === null ? null : javaInteger(version) };
    }
    const expressions = await this.taskExpressions(ctx, task);
    const key = evaluateOf(ref.key, expressions);
    if (key === null || key === undefined) return null;
    const evaluatedVersion = version === null ? null : evaluateOf(version, expressions);
    return { key: String(key), binding: ref.binding, version: evaluatedVersion === null || evaluatedVersion === undefined ? null : javaInteger(String(evaluatedVersion)) };
  }

  /** What expressions on the task resolve (Camunda's TaskEntity as variable scope): its variables (its own over its execution's), then its execution's context. */
  private async taskExpressions(ctx: CommandContext, task: Task): Promise<ExpressionContext> {
    const scope = await this.openScope(ctx, task);
    return variablesOver(visibleOf(task, scope), this.executionExpressions(task, scope));
  }

  /** What expressions on the task's execution resolve; the host's beans alone for a task without one. */
  private executionExpressions(task: Task, scope: TaskScope): ExpressionContext {
    const execution = task.executionId ? scope.runner?.tree.executions.get(task.executionId) : undefined;
    return execution ? scope.runner!.expressionContext(execution) : beansContext(this.env.delegates);
  }

  /** The task's definition and user task element (neither for a task without a process). */
  private async elementOf(ctx: CommandContext, task: Task) {
    const definition = task.processDefinitionId ? await this.env.definition(ctx, task.processDefinitionId) : null;
    const element = definition && task.taskDefinitionKey ? (await this.env.models.get(ctx, definition)).activity(task.taskDefinitionKey) : undefined;
    return { definition, element };
  }

  /**
   * Camunda's GetTaskFormVariablesCmd: first each form field (camunda:formData) with the variable of
   * its id in the task's execution converted to its form value, or else its default; then the other
   * variables visible from the task; optionally some names only.
   */
  getTaskFormVariables(taskId: string, variableNames?: readonly string[]): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetTaskFormVariablesCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'form');
      await checkTask(ctx, task, readVariable(ctx));
      const scope = await this.openScope(ctx, task);
      const execution = scope.runner && task.executionId ? scope.runner.variables.visible(task.executionId) : {};
      const fields: Record<string, TypedValue> = {};
      for (const field of (await this.formRead(ctx, task)).fields) {
        const held = execution[field.id];
        fields[field.id] = held !== undefined ? formValueFrom(field, held) : formValueOf(field);
      }
      const all = { ...fields, ...Object.fromEntries(Object.entries(visibleOf(task, scope)).filter(([name]) => !(name in fields))) };
      if (!variableNames) return all;
      return Object.fromEntries(Object.entries(all).filter(([name]) => variableNames.includes(name)));
    });
  }

  // --- variables ---------------------------------------------------------------------------------

  /** Every variable visible from the task: its local ones over those of its execution and the execution's ancestors. */
  getVariables(taskId: string): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetTaskVariablesCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'variables');
      await checkTask(ctx, task, readVariable(ctx));
      return visibleOf(task, await this.openScope(ctx, task));
    });
  }

  /** The task's own variables. */
  getVariablesLocal(taskId: string): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetTaskVariablesCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'variables');
      await checkTask(ctx, task, readVariable(ctx));
      return Object.fromEntries([...(await ctx.tasks.variables.findByTask(task.id))].map(([name, entry]) => [name, entry.value]));
    });
  }

  /** One visible variable, undefined when there is none of the name. */
  async getVariable(taskId: string, name: string): Promise<TypedValue | undefined> {
    return (await this.getVariables(taskId))[name];
  }

  /** One task-local variable, undefined when there is none of the name. */
  async getVariableLocal(taskId: string, name: string): Promise<TypedValue | undefined> {
    return (await this.getVariablesLocal(taskId))[name];
  }

  /** Camunda's setVariables on a task: where the variable lives (the task, its execution or an ancestor), else on the process instance. */
  setVariables(taskId: string, variables: Record<string, TypedValue>): Promise<void> {
    return this.updateVariables(taskId, variables, []);
  }

  /** Sets the variables on the task itself. */
  setVariablesLocal(taskId: string, variables: Record<string, TypedValue>): Promise<void> {
    return this.updateVariablesLocal(taskId, variables, []);
  }

  /** Removes variables where they live (task, execution or an ancestor); unknown names are ignored. */
  removeVariables(taskId: string, names: readonly string[]): Promise<void> {
    return this.patchVariables(taskId, {}, names, false, true);
  }

  /** Removes task-local variables; unknown names are ignored. */
  removeVariablesLocal(taskId: string, names: readonly string[]): Promise<void> {
    return this.patchVariables(taskId, {}, names, true, true);
  }

  /** Modifications then deletions in one transaction (REST's POST …/variables); `operation`: how the user operation log names it. */
  updateVariables(taskId: string, modifications: Record<string, TypedValue>, deletions: readonly string[] = [], operation?: VariableOperation): Promise<void> {
    return this.patchVariables(taskId, modifications, deletions, false, false, operation);
  }

  /** Local modifications then deletions in one transaction (REST's POST …/localVariables). */
  updateVariablesLocal(taskId: string, modifications: Record<string, TypedValue>, deletions: readonly string[] = [], operation?: VariableOperation): Promise<void> {
    return this.patchVariables(taskId, modifications, deletions, true, false, operation);
  }

  /**
   * Camunda's PatchTaskVariablesCmd (or, `removal`, its RemoveTaskVariablesCmd alone, whose text for a
   * missing task differs): modifications then deletions, on the task's own variables when `local`.
   */
  private patchVariables(
    taskId: string,
    modifications: Record<string, TypedValue>,
    deletions: readonly string[],
    local: boolean,
    removal: boolean,
    operation?: VariableOperation,
  ): Promise<void> {
    return this.commands.run(removal ? 'RemoveTaskVariablesCmd' : 'PatchTaskVariablesCmd', async (ctx) => {
      const task = removal ? await this.load(ctx, taskId, 'null') : await this.load(ctx, taskId, 'variables');
      await checkTask(ctx, task, UPDATE_VARIABLE);
      OperationLogEntries.variablesChanged(ctx, { task }, modifications, deletions, operation);
      let setOnTask: boolean;
      if (local) {
        setOnTask = await this.write(ctx, task, { runner: null, locals: await ctx.tasks.variables.findByTask(task.id), parent: null }, modifications, deletions, true);
      } else {
        const scope = await this.openScope(ctx, task);
        setOnTask = await this.write(ctx, task, scope, modifications, deletions, false);
        if (scope.runner) await completeRun(ctx, scope.runner);
      }
      // Camunda's SetTaskVariablesCmd: a variable the task itself got fires its update event (removals do not).
      if (setOnTask) await taskUpdated(ctx, this.env, task, false);
    });
  }

  // --- identity links ----------------------------------------------------------------------------

  /** The stored links (candidates, custom types), then the assignee and the owner as links of those types (Camunda's GetIdentityLinksForTaskCmd). */
  getIdentityLinks(taskId: string): Promise<TaskIdentityLink[]> {
    return this.commands.run('GetIdentityLinksForTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId, 'null');
      await checkTask(ctx, task, READ);
      const links: TaskIdentityLink[] = (await ctx.tasks.findLinks(task.id)).map((each) => ({ ...each, taskId: task.id }));
      if (task.assignee !== null) links.push({ userId: task.assignee, groupId: null, type: 'assignee', taskId: task.id });
      if (task.owner !== null) links.push({ userId: task.owner, groupId: null, type: 'owner', taskId: task.id });
      return links;
    });
  }

  addCandidateUser(taskId: string, userId: string): Promise<void> {
    return this.addUserIdentityLink(taskId, userId, 'candidate');
  }

  addCandidateGroup(taskId: string, groupId: string): Promise<void> {
    return this.addGroupIdentityLink(taskId, groupId, 'candidate');
  }

  deleteCandidateUser(taskId: string, userId: string): Promise<void> {
    return this.deleteUserIdentityLink(taskId, userId, 'candidate');
  }

  deleteCandidateGroup(taskId: string, groupId: string): Promise<void> {
    return this.deleteGroupIdentityLink(taskId, groupId, 'candidate');
  }

  /** An assignee or owner link sets that field; a link of another type (candidate, custom, none) is stored. */
  addUserIdentityLink(taskId: string, userId: string | null, type: string | null): Promise<void> {
    return this.identityLink('AddIdentityLinkCmd', taskId, userId, null, type, true);
  }

  addGroupIdentityLink(taskId: string, groupId: string | null, type: string | null): Promise<void> {
    return this.identityLink('AddIdentityLinkCmd', taskId, null, groupId, type, true);
  }

  /** An assignee or owner link clears that field; a link of another type is removed. */
  deleteUserIdentityLink(taskId: string, userId: string | null, type: string | null): Promise<void> {
    return this.identityLink('DeleteIdentityLinkCmd', taskId, userId, null, type, false);
  }

  deleteGroupIdentityLink(taskId: string, groupId: string | null, type: string | null): Promise<void> {
    return this.identityLink('DeleteIdentityLinkCmd', taskId, null, groupId, type, false);
  }

  private identityLink(command: string, taskId: string, userId: string | null, groupId: string | null, type: string | null, add: boolean): Promise<void> {
    // Camunda's validation before the task is looked at: AbstractAddIdentityLinkCmd's, or DeleteIdentityLinkCmd's
    // (whose text for a missing type speaks of adding); an owner link added with a group clears the owner.
    if (add) {
      if (type === 'assignee' && groupId !== null) throw new BadUserRequestException('Incompatible usage: cannot use ASSIGNEE together with a groupId');
      if (type !== 'assignee' && userId === null && groupId === null) throw new NullValueException('userId and groupId cannot both be null');
    } else {
      if (type === null) throw new NullValueException('type is required when adding a new task identity link: type is null');
      if ((type === 'assignee' || type === 'owner') && groupId !== null) throw new ProcessEngineException(`Incompatible usage: cannot use type '${type}' together with a groupId`);
      if (type !== 'assignee' && type !== 'owner' && userId === null && groupId === null) throw new ProcessEngineException('userId and groupId cannot both be null');
    }
    return this.commands.run(command, async (ctx) => {
      // Camunda: AddIdentityLinkCmd finds the task as a NotFoundException (400), DeleteIdentityLinkCmd as a NullValueException (500).
      const task = await this.load(ctx, taskId, add ? 'notFound' : 'null');
      await checkTask(ctx, task, ASSIGN);
      ensureActive(task);
      OperationLogEntries.identityLink(ctx, task, type, userId, groupId, add);
      if (type === 'assignee') await updateAssignment(ctx, this.env, task, { assignee: add ? userId : null });
      else if (type === 'owner') {
        await updateTask(ctx, task, { owner: add ? userId : null });
        await taskUpdated(ctx, this.env, { ...task, owner: add ? userId : null }, false);
      } else {
        if (add) {
          await ctx.tasks.addLink(task.id, userId, groupId, type);
          await grantTaskDefault(ctx, task, userId !== null ? { userId } : { groupId: groupId! }, 'identityLink');
          await TaskHistory.linkChanged(ctx, task, type, userId, groupId, 'add');
        } else {
          // Camunda logs the deletion of each link it removes: none when there was none.
          const removed = await ctx.tasks.deleteLink(task.id, userId, groupId, type);
          for (let i = 0; i < removed; i++) await TaskHistory.linkChanged(ctx, task, type, userId, groupId, 'delete');
        }
        await taskUpdated(ctx, this.env, task, false);
      }
    });
  }

  // --- internals ---------------------------------------------------------------------------------

  /** The task, or Camunda's error for a missing one, as the looking command throws it (MISSING_TASK). */
  private async load(ctx: CommandContext, taskId: string, missing: keyof typeof MISSING_TASK = 'notFound'): Promise<Task> {
    const task = await ctx.tasks.findById(taskId);
    if (!task) throw MISSING_TASK[missing](taskId);
    return task;
  }

  /**
   * The task's instance (for the execution's variables) and its local variables; a sub-task without
   * an execution sees through its parent task (Camunda's parent variable scope), up the chain.
   */
  private async openScope(ctx: CommandContext, task: Task, seen = new Set<string>()): Promise<TaskScope> {
    const locals = await ctx.tasks.variables.findByTask(task.id);
    if (!task.processInstanceId || !task.executionId) {
      seen.add(task.id);
      const parentTask = task.parentTaskId && !seen.has(task.parentTaskId) ? await ctx.tasks.findById(task.parentTaskId) : null;
      if (!parentTask) return { runner: null, locals, parent: null };
      const parentScope = await this.openScope(ctx, parentTask, seen);
      return { runner: parentScope.runner, locals, parent: { task: parentTask, scope: parentScope } };
    }
    const runner = await openInstance(ctx, this.env, task.processInstanceId);
    if (!runner || !runner.tree.executions.get(task.executionId)) {
      throw new ProcessEngineException(`Execution '${task.executionId}' of task '${task.id}' is gone`);
    }
    return { runner, locals, parent: null };
  }

  /**
   * Camunda's TaskEntity.setExecutionVariables: setVariable on the task's parent scope — its
   * execution, or a sub-task's parent task — skipping the task's own variables. A task without
   * either drops them.
   */
  private async setExecutionVariables(ctx: CommandContext, task: Task, variables: Record<string, TypedValue>): Promise<ProcessRunner | null> {
    if (!task.executionId && !task.parentTaskId) return null;
    const scope = await this.openScope(ctx, task);
    if (scope.parent) await this.write(ctx, scope.parent.task, scope.parent.scope, variables, [], false);
    else if (task.executionId) for (const [name, value] of Object.entries(variables)) scope.runner!.variables.setVisible(task.executionId, name, value);
    return scope.runner;
  }

  /**
   * Sets and removes variables through the task: locally only, or (Camunda's setVariable) on the
   * task when it holds the name, else where the execution sees it, else on the process instance.
   * Execution variables are written when the caller completes the run.
   */
  /** Writes the changes where they belong; whether the task itself got a variable set. */
  private async write(ctx: CommandContext, task: Task, scope: TaskScope, modifications: Record<string, TypedValue>, deletions: readonly string[], local: boolean): Promise<boolean> {
    const localSets: Array<[string, TypedValue]> = [];
    const localRemovals: string[] = [];
    // What a sub-task does not hold itself goes to its parent task, as that one's setVariable.
    const toParent: Record<string, TypedValue> = {};
    const removeFromParent: string[] = [];
    for (const [name, value] of Object.entries(modifications)) {
      if (local || scope.locals.has(name) || (!scope.parent && !scope.runner)) localSets.push([name, value]);
      else if (scope.parent) toParent[name] = value;
      else scope.runner!.variables.setVisible(task.executionId!, name, value);
    }
    for (const name of deletions) {
      if (scope.locals.has(name) || localSets.some(([set]) => set === name)) localRemovals.push(name);
      else if (!local && scope.parent) removeFromParent.push(name);
      else if (!local && scope.runner) scope.runner.variables.removeVisible(task.executionId!, name);
    }
    await writeTaskLocals(ctx, task, scope.locals, localSets, localRemovals);
    if (scope.parent && (Object.keys(toParent).length > 0 || removeFromParent.length > 0)) {
      await this.write(ctx, scope.parent.task, scope.parent.scope, toParent, removeFromParent, false);
    }
    return localSets.length > 0;
  }

  private async completeLoaded(ctx: CommandContext, task: Task, runner: ProcessRunner | null, variables: Record<string, TypedValue>): Promise<Record<string, TypedValue>> {
    ensureActive(task);
    const execution = runner && task.executionId ? runner.tree.executions.get(task.executionId) : undefined;
    const element = runner && task.taskDefinitionKey ? runner.model.activity(task.taskDefinitionKey) : undefined;
    const logged = () => OperationLogEntries.task(ctx, 'Complete', task, [{ property: 'delete', orgValue: false, newValue: true }]);
    if (runner && execution && element) {
      // A BpmnError from a complete listener goes to its catching event; the task is not completed (Camunda's TaskEntity.complete).
      const completed = await completeProcessTask(runner, execution, element, task, logged);
      await completeRun(ctx, runner);
      return completed ? runner.variables.snapshot() : {};
    }
    logged();
    await removeTasks(ctx, [task], 'completed');
    // A task without a process answers no variables (Camunda's CompleteTaskCmd); a sub-task may have
    // set some on its parent's process instance.
    if (!runner || !task.executionId) {
      if (runner) await completeRun(ctx, runner);
      return {};
    }
    if (!execution) throw new ProcessEngineException(`Execution '${task.executionId}' of task '${task.id}' is gone`);
    runner.signal(execution);
    await completeRun(ctx, runner);
    return runner.variables.snapshot();
  }
}

interface TaskScope {
  runner: ProcessRunner | null;
  locals: StoredTaskLocals;
  /** A sub-task's parent task and its scope (the sub-task has no execution of its own). */
  parent: { task: Task; scope: TaskScope } | null;
}

function visibleOf(task: Task, scope: TaskScope): Record<string, TypedValue> {
  const result = scope.parent
    ? visibleOf(scope.parent.task, scope.parent.scope)
    : scope.runner && task.executionId
      ? scope.runner.variables.visible(task.executionId)
      : {};
  for (const [name, entry] of scope.locals) result[name] = entry.value;
  return result;
}

/** Permissions that pass a check: any of these on the task, or any of those on its process definition (by key). */
interface TaskPermissions {
  task: readonly string[];
  definition: readonly string[];
  /** What TenantCommandChecker says the caller cannot do to a task of another tenant. */
  tenantCommand: string;
}

// Camunda's AuthorizationCommandChecker: checkTaskWork, checkTaskAssign, checkReadTask, checkReadTaskVariable
// (readVariable) and checkUpdateTaskVariable.
const WORK: TaskPermissions = { task: ['TASK_WORK', 'UPDATE'], definition: ['TASK_WORK', 'UPDATE_TASK'], tenantCommand: 'work on task' };
const ASSIGN: TaskPermissions = { task: ['TASK_ASSIGN', 'UPDATE'], definition: ['TASK_ASSIGN', 'UPDATE_TASK'], tenantCommand: 'assign the task' };
const READ: TaskPermissions = { task: ['READ'], definition: ['READ_TASK'], tenantCommand: 'read the task' };
const READ_VARIABLE: TaskPermissions = { task: ['READ_VARIABLE'], definition: ['READ_TASK_VARIABLE'], tenantCommand: 'read the task' };
/** Camunda's checkReadTaskVariable: READ as for the task itself, the variable permissions with enforceSpecificVariablePermission. */
const readVariable = (ctx: CommandContext): TaskPermissions => (ctx.config.authorization.enforceSpecificVariablePermission ? READ_VARIABLE : READ);
const UPDATE_VARIABLE: TaskPermissions = {
  task: ['UPDATE_VARIABLE', 'UPDATE'],
  definition: ['UPDATE_TASK_VARIABLE', 'UPDATE_TASK'],
  tenantCommand: 'update the task',
};

/**
 * The tenant check, then any of the permissions, in Camunda's order (a denial lists them so): each
 * permission on the task, then its counterpart on the process definition.
 */
async function checkTask(ctx: CommandContext, task: Task, permissions: TaskPermissions): Promise<void> {
  ctx.tenantCheck.require(task.tenantId, `${permissions.tenantCommand} '${task.id}'`);
  if (!ctx.authz.isActive) return;
  const definition = task.processDefinitionId ? await ctx.processDefinitions.findById(task.processDefinitionId) : null;
  await ctx.authz.check(
    ...permissions.task.flatMap((permission, i) => [
      { permission, resource: Resources.TASK, resourceId: task.id },
      ...(definition ? [{ permission: permissions.definition[i]!, resource: Resources.PROCESS_DEFINITION, resourceId: definition.key }] : []),
    ]),
  );
}

/** Camunda's configureTaskQuery: READ on the task, or READ_TASK on its process definition. */
async function readableTasks(ctx: CommandContext): Promise<TaskReadFilter> {
  const task = await ctx.authz.readFilter('READ', Resources.TASK);
  const definition = await ctx.authz.readFilter('READ_TASK', Resources.PROCESS_DEFINITION);
  return task && definition ? { task, definition } : null;
}

/** Writes a change that may reassign the task; the historic activity instance of a user task follows its assignee. */
async function updateAssignment(ctx: CommandContext, env: RuntimeEnvironment, task: Task, changes: Partial<Task> & { assignee: string | null }): Promise<void> {
  await updateTask(ctx, task, changes);
  const assigneeChanged = changes.assignee !== task.assignee;
  if (assigneeChanged) await HistoryWriter.taskAssigned(ctx, task.activityInstanceId, changes.assignee);
  await taskUpdated(ctx, env, { ...task, ...changes }, assigneeChanged);
}

/**
 * Camunda's TaskEntity.triggerUpdateEvent, after a command changed a process task (its properties,
 * assignee, owner, candidates, comments or attachments): its update listeners, then its assignment
 * listeners when the assignee changed. What they change on the task is written, their variables go
 * to its process instance.
 */
async function taskUpdated(ctx: CommandContext, env: RuntimeEnvironment, updated: Task, assigneeChanged: boolean): Promise<void> {
  // Every update event stamps the task (Camunda's lastUpdated), whether or not listeners run.
  const task = { ...updated, lastUpdated: ctx.clock.now() };
  await ctx.tasks.touch(task.id, task.lastUpdated);
  if (!task.processDefinitionId || !task.processInstanceId || !task.executionId || !task.taskDefinitionKey) return;
  const definition = await env.definition(ctx, task.processDefinitionId);
  const element = definition ? (await env.models.get(ctx, definition)).activity(task.taskDefinitionKey) : undefined;
  if (!element || !(hasTaskListeners(element, 'update') || (assigneeChanged && hasTaskListeners(element, 'assignment')))) return;
  const runner = await openInstance(ctx, env, task.processInstanceId);
  const execution = runner?.tree.executions.get(task.executionId);
  if (!runner || !execution) return;
  const changed = { ...task };
  let completing = false;
  let reassigned = false;
  let assigneeAfterUpdate = task.assignee;
  const threw = await listenersThrewBpmnError(ctx, runner, execution, async () => {
    completing = await fireTaskListeners(runner, execution, element, 'update', changed);
    // Camunda's fireAssignmentEvent reads the task's property changes: an update listener's setAssignee counts too.
    assigneeAfterUpdate = changed.assignee;
    reassigned = assigneeAfterUpdate !== task.assignee;
    if (assigneeChanged || reassigned) completing = (await fireTaskListeners(runner, execution, element, 'assignment', changed)) || completing;
  });
  if (threw) return;
  const changes = listenerChanges(task, changed);
  if (changes) await updateTask(ctx, task, changes);
  // The built-in assignment listener (history's activity instance) sees the assignee the update listeners left.
  if (reassigned) await HistoryWriter.taskAssigned(ctx, task.activityInstanceId, assigneeAfterUpdate);
  // A listener called task.complete().
  if (completing) await completeProcessTask(runner, execution, element, { ...task, ...changes });
  await completeRun(ctx, runner);
}

/**
 * Runs task listeners; a BpmnError one throws goes to the event that catches it from the task's
 * execution (Camunda's TaskEntity.invokeListener), the instance runs on, and this answers true.
 */
async function listenersThrewBpmnError(ctx: CommandContext, runner: ProcessRunner, execution: Execution, work: () => Promise<void>): Promise<boolean> {
  if (!(await withErrorPropagation(runner, execution, work))) return false;
  await completeRun(ctx, runner);
  return true;
}

/** What a new attachment of a task holds: a link (`url`) or uploaded `content` (which wins), with name, description and type. */
export interface NewAttachment {
  name?: string | null;
  description?: string | null;
  type?: string | null;
  url?: string | null;
  content?: Buffer | null;
}

/**
 * Camunda's errors for a task that is not there, by the command that looks for it: those built on
 * AbstractSetTaskPropertyCmd (assign, owner, add identity link) a NotFoundException (400), the older
 * ones (claim, delegate, resolve, complete, …) a NullValueException (500), the variable commands
 * theirs ("task … doesn't exist"), GetTaskFormVariablesCmd a BadUserRequestException.
 */
const MISSING_TASK = {
  notFound: (taskId: string) => new NotFoundException(`Cannot find task with id ${taskId}: task is null`),
  null: (taskId: string) => new NullValueException(`Cannot find task with id ${taskId}: task is null`),
  variables: (taskId: string) => new NullValueException(`task ${taskId} doesn't exist: task is null`),
  form: (taskId: string) => new BadUserRequestException(`Cannot find task with id '${taskId}'.: task is null`),
  rendered: (taskId: string) => new NullValueException(`Task '${taskId}' not found: task is null`),
} as const;

/** Camunda's TaskEntity.ensureTaskActive (setAssignee, setOwner, identity links, complete): ENGINE-03043 for a suspended task. */
function ensureActive(task: Task): void {
  if (task.suspended) throw suspendedEntity('task', task.id);
}
