import { checkCreateInstance } from '../../authorization/instance-checks.js';
import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { startInstance } from '../../runtime/start-instance.js';
import type { ModificationInstruction } from '../../runtime/modification.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { definitionNotFound } from '../process-definition/process-definition-messages.js';
import type { ProcessInstance } from './process-instance.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

export interface StartProcessInstanceRequest {
  businessKey?: string | null;
  variables?: Record<string, TypedValue>;
  /** Start at these activities instead of the start event (startBeforeActivity, startAfterActivity, startTransition). */
  startInstructions?: Exclude<ModificationInstruction, { type: 'cancel' }>[];
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
    private readonly env: RuntimeEnvironment,
  ) {}

  async execute(ctx: CommandContext): Promise<StartedProcessInstance> {
    const definition = await ctx.processDefinitions.findById(this.processDefinitionId);
    if (!definition) throw definitionNotFound(this.processDefinitionId);
    await checkCreateInstance(ctx, definition.key);
    if (definition.suspended) {
      throw new ProcessEngineException(`Cannot start process instance. Process definition ${definition.name ?? definition.key} (id = ${definition.id}) is suspended`);
    }
    const model = await this.env.models.get(ctx, definition);
    const start = model.initialActivity();
    if (!start && !this.request.startInstructions?.length) throw new ProcessEngineException(`Process definition '${definition.id}' has no none start event to start from`);
    const runner = await startInstance(ctx, this.env, definition, {
      businessKey: this.request.businessKey ?? null,
      variables: this.request.variables,
      startActivityId: start?.id ?? '',
      instructions: this.request.startInstructions,
    });
    OperationLogEntries.processInstance(ctx, 'Create', { processInstanceId: runner.tree.processInstanceId, processDefinitionId: definition.id, processDefinitionKey: definition.key });
    return {
      id: runner.tree.processInstanceId,
      processDefinitionId: definition.id,
      processDefinitionKey: definition.key,
      businessKey: this.request.businessKey ?? null,
      ended: runner.ended,
      suspended: false,
      tenantId: definition.tenantId,
      variables: runner.variables.snapshot(),
    };
  }
}
