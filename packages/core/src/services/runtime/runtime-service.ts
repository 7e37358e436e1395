import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { ProcessModelCache } from '../process-definition/process-model-cache.js';
import { buildActivityInstanceTree } from './activity-instance-tree.js';
import type { ActivityInstanceNode, ProcessInstance, ProcessInstanceQuery } from './process-instance.js';
import { StartProcessInstanceCmd, type StartProcessInstanceRequest, type StartedProcessInstance } from './start-process-instance-cmd.js';

/** Process instances: start, query, inspect, variables and deletion (Camunda's RuntimeService). */
@injectable()
export class RuntimeService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(ProcessModelCache) private readonly models: ProcessModelCache,
  ) {}

  /** Needs CREATE on ProcessInstance and CREATE_INSTANCE on the definition. */
  startProcessInstanceById(processDefinitionId: string, request: StartProcessInstanceRequest = {}): Promise<StartedProcessInstance> {
    return this.commands.execute(new StartProcessInstanceCmd(processDefinitionId, request, this.models));
  }

  findProcessInstances(query: ProcessInstanceQuery = {}): Promise<ProcessInstance[]> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => ctx.processInstances.find(query, await readableInstances(ctx)));
  }

  countProcessInstances(query: ProcessInstanceQuery = {}): Promise<number> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => ctx.processInstances.count(query, await readableInstances(ctx)));
  }

  /** The instance, if it runs and the caller may read it. */
  getProcessInstance(id: string): Promise<ProcessInstance | null> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => (await ctx.processInstances.find({ processInstanceIds: [id] }, await readableInstances(ctx)))[0] ?? null);
  }

  /** NotFoundException for an unknown instance. */
  getActivityInstanceTree(processInstanceId: string): Promise<ActivityInstanceNode | null> {
    return this.commands.run('GetActivityInstanceCmd', async (ctx) => {
      const root = await ctx.executions.findById(processInstanceId);
      if (!root || root.parentId !== null) return null;
      await checkInstance(ctx, 'READ', 'READ_INSTANCE', root.id, root.processDefinitionKey);
      return buildActivityInstanceTree(root.id, root.processDefinitionId, await ctx.executions.activityInstancesOf(root.id));
    });
  }

  /** The instance's variables by name. */
  getVariables(processInstanceId: string): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetExecutionVariablesCmd', async (ctx) => {
      const runner = await this.open(ctx, processInstanceId);
      await checkInstance(ctx, 'READ', 'READ_INSTANCE', processInstanceId, runner.definition.key);
      return Object.fromEntries(runner.variables.names().map((name) => [name, runner.variables.get(name)!]));
    });
  }

  /** Sets and removes variables of a running instance in one transaction. */
  modifyVariables(processInstanceId: string, modifications: Record<string, TypedValue>, deletions: readonly string[] = []): Promise<void> {
    return this.commands.run('SetExecutionVariablesCmd', async (ctx) => {
      const runner = await this.open(ctx, processInstanceId);
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', processInstanceId, runner.definition.key);
      for (const [name, value] of Object.entries(modifications)) runner.variables.set(name, value);
      for (const name of deletions) runner.variables.remove(name);
      await runner.variables.flush(ctx);
    });
  }

  /** Cancels every path of the instance and removes it (history arrives with the history issue). */
  deleteProcessInstance(processInstanceId: string): Promise<void> {
    return this.commands.run('DeleteProcessInstanceCmd', async (ctx) => {
      const runner = await this.open(ctx, processInstanceId);
      await checkInstance(ctx, 'DELETE', 'DELETE_INSTANCE', processInstanceId, runner.definition.key);
      runner.terminate();
      await completeRun(ctx, runner);
    });
  }

  private async open(ctx: CommandContext, processInstanceId: string) {
    const runner = await openInstance(ctx, this.models, processInstanceId);
    if (!runner) throw new NotFoundException(`Process instance with id ${processInstanceId} does not exist`);
    return runner;
  }
}

/** Camunda: a permission on the instance itself, or the matching *_INSTANCE permission on its definition's key. */
export function checkInstance(ctx: CommandContext, onInstance: string, onDefinition: string, instanceId: string, definitionKey: string) {
  return ctx.authz.check(
    { permission: onInstance, resource: Resources.PROCESS_INSTANCE, resourceId: instanceId },
    { permission: onDefinition, resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey },
  );
}

const readableInstances = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
