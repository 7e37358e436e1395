import { Resources } from '../../authorization/resources.js';
import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { ExecutionTree } from '../../runtime/execution-tree.js';
import { InstanceVariables } from '../../runtime/instance-variables.js';
import { completeRun } from '../../runtime/open-instance.js';
import { ProcessRunner } from '../../runtime/process-runner.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { ProcessModelCache } from '../process-definition/process-model-cache.js';
import { definitionNotFound } from '../process-definition/process-definition-messages.js';
import type { ProcessInstance } from './process-instance.js';

export interface StartProcessInstanceRequest {
  businessKey?: string | null;
  variables?: Record<string, TypedValue>;
}

export interface StartedProcessInstance extends ProcessInstance {
  /** The instance's variables after the start (for withVariablesInReturn). */
  variables: Record<string, TypedValue>;
}

/** Starts an instance at the process's none start event and runs it until it waits or ends. */
export class StartProcessInstanceCmd implements Command<StartedProcessInstance> {
  readonly name = 'StartProcessInstanceCmd';

  constructor(
    private readonly processDefinitionId: string,
    private readonly request: StartProcessInstanceRequest,
    private readonly models: ProcessModelCache,
  ) {}

  async execute(ctx: CommandContext): Promise<StartedProcessInstance> {
    const definition = await ctx.processDefinitions.findById(this.processDefinitionId);
    if (!definition) throw definitionNotFound(this.processDefinitionId);
    await ctx.authz.check({ permission: 'CREATE', resource: Resources.PROCESS_INSTANCE });
    await ctx.authz.check({ permission: 'CREATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
    if (definition.suspended) {
      throw new ProcessEngineException(`Cannot start process instance. Process definition ${definition.name ?? definition.key} (id = ${definition.id}) is suspended`);
    }
    const model = await this.models.get(ctx, definition);
    const start = model.initialActivity();
    if (!start) throw new ProcessEngineException(`Process definition '${definition.id}' has no none start event to start from`);

    const id = ctx.ids.next();
    const tree = ExecutionTree.empty(id);
    const root = tree.add({
      id, processInstanceId: id, parentId: null, processDefinitionId: definition.id, processDefinitionKey: definition.key,
      businessKey: this.request.businessKey ?? null, activityId: null, activityInstanceId: id, isActive: true,
      isConcurrent: false, isScope: true, suspended: false, tenantId: definition.tenantId, startTime: ctx.clock.now(),
    });
    tree.addActivityInstance({
      id, processInstanceId: id, parentId: null, activityId: definition.id, activityType: 'processDefinition',
      activityName: definition.name, executionId: id, startTime: ctx.clock.now(),
    });
    const variables = InstanceVariables.empty(id);
    for (const [name, value] of Object.entries(this.request.variables ?? {})) variables.set(name, value);
    const runner = new ProcessRunner(ctx, tree, model, definition, variables);
    runner.enter(root, start.id);
    await completeRun(ctx, runner);
    return {
      id,
      processDefinitionId: definition.id,
      processDefinitionKey: definition.key,
      businessKey: this.request.businessKey ?? null,
      ended: runner.ended,
      suspended: false,
      tenantId: definition.tenantId,
      variables: Object.fromEntries(variables.names().map((name) => [name, variables.get(name)!])),
    };
  }
}
