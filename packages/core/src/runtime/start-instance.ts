import type { CommandContext } from '../command/command-context.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import { armEventSubProcesses } from './events/event-sub-processes.js';
import type { Execution } from './execution.js';
import { modifyInstance, type ModificationInstruction } from './modification.js';
import { completeRun, newInstance } from './open-instance.js';
import type { ProcessRunner, RunnerSkips } from './process-runner.js';
import type { RuntimeEnvironment } from './runtime-environment.js';
import { untypedValue, type TypedValue } from './variables/index.js';

export interface InstanceStart {
  businessKey?: string | null;
  variables?: Record<string, TypedValue>;
  /** The start event to begin at. */
  startActivityId: string;
  /** Start here instead (Camunda's startInstructions): the start event does not run. */
  instructions?: readonly ModificationInstruction[];
  /** A called instance: the call activity's execution in the caller. */
  superExecution?: Execution | null;
  /** A restart's skipCustomListeners / skipIoMappings. */
  skips?: RunnerSkips;
  /** Prepare the new instance before it runs (e.g. a message start's payload). */
  beforeRun?: (runner: ProcessRunner) => void;
}

/** Creates a process instance (root execution and its activity instance) and runs it until it waits or ends. */
export async function startInstance(ctx: CommandContext, env: RuntimeEnvironment, definition: ProcessDefinition, start: InstanceStart): Promise<ProcessRunner> {
  const id = ctx.ids.next();
  const runner = await newInstance(ctx, env, definition, id);
  const now = ctx.clock.now();
  const root = runner.tree.add({
    id,
    processInstanceId: id,
    parentId: null,
    processDefinitionId: definition.id,
    processDefinitionKey: definition.key,
    businessKey: start.businessKey ?? null,
    activityId: null,
    activityInstanceId: id,
    isActive: true,
    isConcurrent: false,
    isScope: true,
    suspended: false,
    tenantId: definition.tenantId,
    startTime: now,
    scopeActivityId: null,
    scopeInstanceId: id,
    superExecutionId: start.superExecution?.id ?? null,
    superProcessInstanceId: start.superExecution?.processInstanceId ?? null,
  });
  runner.startedRootInstance = !start.superExecution;
  runner.tree.addActivityInstance({
    id,
    processInstanceId: id,
    parentId: null,
    activityId: definition.id,
    activityType: 'processDefinition',
    activityName: definition.name,
    executionId: id,
    startTime: now,
  });
  runner.variables.starting = true;
  for (const [name, value] of Object.entries(start.variables ?? {})) runner.variables.set(name, value);
  // camunda:initiator: the authenticated user who started the instance (null when nobody is).
  const initiator = runner.model.activity(start.startActivityId)?.camunda.initiator;
  if (typeof initiator === 'string' && initiator !== '') runner.variables.set(initiator, untypedValue(ctx.authentication?.userId ?? null));
  if (start.skips) runner.skips = start.skips;
  start.beforeRun?.(runner);
  await armEventSubProcesses(runner, root, runner.model.key);
  await runner.notifyProcess('start');
  if (start.instructions && start.instructions.length > 0) {
    await modifyInstance(runner, start.instructions);
  } else {
    runner.enter(root, start.startActivityId);
  }
  await completeRun(ctx, runner);
  return runner;
}
