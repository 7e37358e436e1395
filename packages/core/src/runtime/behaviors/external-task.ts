import { ExternalTaskLog } from '../../history/external-task-log.js';
import type { ActivityBehavior } from './behavior.js';
import { declaredPriority } from '../priority.js';

/**
 * camunda:type="external": creates the external task for camunda:topic (an expression is
 * evaluated) and waits until a worker completes it; the ExternalTaskService then signals.
 */
export const externalTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    runner.wroteRows = true;
    const topic = String(runner.evaluate(execution, String(element.camunda.topic ?? '')) ?? '');
    const priority = declaredPriority(runner.model, element, 'taskPriority', (expression) => runner.evaluate(execution, expression), '');
    const topicName = topic;
    const task = {
      id: runner.ctx.ids.next(),
      topicName,
      workerId: null,
      lockExpirationTime: null,
      retries: null,
      errorMessage: null,
      errorDetails: null,
      suspended: execution.suspended,
      executionId: execution.id,
      processInstanceId: execution.processInstanceId,
      processDefinitionId: runner.definition.id,
      processDefinitionKey: runner.definition.key,
      processDefinitionVersionTag: runner.definition.versionTag,
      activityId: element.id,
      activityInstanceId: execution.activityInstanceId,
      tenantId: runner.definition.tenantId,
      priority,
      businessKey: execution.businessKey,
      createTime: runner.ctx.clock.now(),
    };
    await runner.ctx.externalTasks.insert(task);
    ExternalTaskLog.created(runner.ctx, task);
    runner.ctx.emitAfterCommit('externalTask.available', { topicName });
  },
  async signal(runner, execution) {
    runner.leave(execution);
  },
};
