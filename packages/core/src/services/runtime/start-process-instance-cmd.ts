import { checkCreateInstance } from '../../authorization/instance-checks.js';
import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotValidException, ProcessEngineException } from '../../errors/exceptions.js';
import { MI_BODY_SUFFIX } from '../../runtime/multi-instance.js';
import { engineMessage } from '../../errors/engine-message.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { startInstance } from '../../runtime/start-instance.js';
import { runnerSkips, type ProcessRunner } from '../../runtime/process-runner.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import type { ModificationInstruction } from '../../runtime/modification.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { ensureDefinitionActive, noDeployedDefinition } from '../process-definition/process-definition-messages.js';
import type { ProcessInstance } from './process-instance.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

export interface StartProcessInstanceRequest {
  businessKey?: string | null;
  variables?: Record<string, TypedValue>;
  /** Start at these activities instead of the start event (startBeforeActivity, startAfterActivity, startTransition). */
  startInstructions?: Exclude<ModificationInstruction, { type: 'cancel' }>[];
  /** With start instructions only: the started activities' custom listeners / input-output mappings do not run. */
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
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
    const { startInstructions, skipCustomListeners, skipIoMappings } = this.request;
    if (!startInstructions?.length && (skipCustomListeners || skipIoMappings)) {
      throw new BadUserRequestException(engineMessage('13', '024', 'Cannot skip custom listeners or input/output mappings when start a process instance at default start activity.'));
    }
    const definition = await ctx.processDefinitions.findById(this.processDefinitionId);
    if (!definition) throw noDeployedDefinition(this.processDefinitionId);
    await checkCreateInstance(ctx, definition);
    const model = await this.env.models.get(ctx, definition);
    // Camunda looks for the first instruction's element before it creates the instance (where a
    // suspended definition is refused).
    const first = startInstructions?.[0];
    if (first) {
      const elementId = first.type === 'startTransition' ? first.transitionId : first.activityId;
      const found = first.type === 'startTransition' ? model.flows.has(elementId) : model.activity(elementId.replace(MI_BODY_SUFFIX, '')) !== undefined;
      if (!found) throw new NotValidException(`Element '${elementId}' does not exist in process ${definition.id}: targetElement is null`);
    }
    ensureDefinitionActive(definition);
    const start = model.initialActivity();
    if (!start && !startInstructions?.length) throw new ProcessEngineException(`Process definition '${definition.id}' has no none start event to start from`);
    const runner = await startInstance(ctx, this.env, definition, {
      businessKey: this.request.businessKey ?? null,
      variables: this.request.variables,
      startActivityId: start?.id ?? '',
      instructions: startInstructions,
      skips: runnerSkips({ skipCustomListeners, skipIoMappings }),
    });
    OperationLogEntries.processInstance(ctx, 'Create', { processInstanceId: runner.tree.processInstanceId, processDefinitionId: definition.id, processDefinitionKey: definition.key });
    return { ...startedInstance(runner, definition, this.request.businessKey ?? null), variables: runner.variables.snapshot() };
  }
}

/** The process instance a start just created, as the start answers it. */
export function startedInstance(runner: ProcessRunner, definition: ProcessDefinition, businessKey: string | null): ProcessInstance {
  return {
    id: runner.tree.processInstanceId,
    processDefinitionId: definition.id,
    processDefinitionKey: definition.key,
    businessKey,
    ended: runner.ended,
    suspended: false,
    tenantId: definition.tenantId,
  };
}
