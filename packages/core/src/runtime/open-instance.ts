import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { deleteInstanceRows } from '../persistence/repositories/instance-cleanup.js';
import { loadInstanceRows, type InstanceRows } from '../persistence/repositories/instance-rows.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import type { Execution } from './execution.js';
import { ExecutionTree } from './execution-tree.js';
import { evaluateExpression, NO_VARIABLES } from './expressions/index.js';
import { InstanceVariables } from './instance-variables.js';
import { ProcessRunner } from './process-runner.js';
import type { RuntimeEnvironment } from './runtime-environment.js';

const OPEN_INSTANCES = Symbol('trellis.openInstances');

/** The instances a command has open, so that one touched twice (a call activity and its caller) is loaded once. */
function openInstances(ctx: CommandContext): Map<string, ProcessRunner> {
  let open = ctx.attachments.get(OPEN_INSTANCES) as Map<string, ProcessRunner> | undefined;
  if (!open) ctx.attachments.set(OPEN_INSTANCES, (open = new Map()));
  return open;
}

const PREFETCHED = Symbol('trellis.prefetchedInstances');

/** Rows of an instance the command read together with something else (one round trip); openInstance takes them. */
export function prefetchedInstance(ctx: CommandContext, processInstanceId: string, rows: InstanceRows): void {
  let prefetched = ctx.attachments.get(PREFETCHED) as Map<string, InstanceRows> | undefined;
  if (!prefetched) ctx.attachments.set(PREFETCHED, (prefetched = new Map()));
  prefetched.set(processInstanceId, rows);
}

/** Loads a running process instance (tree, variables, model) so a command can move it on; null when it does not exist. */
export async function openInstance(ctx: CommandContext, env: RuntimeEnvironment, processInstanceId: string): Promise<ProcessRunner | null> {
  const open = openInstances(ctx).get(processInstanceId);
  if (open) return open;
  const prefetched = ctx.attachments.get(PREFETCHED) as Map<string, InstanceRows> | undefined;
  const rows = prefetched?.get(processInstanceId) ?? (await loadInstanceRows(ctx.trx, ctx.dialect, processInstanceId));
  prefetched?.delete(processInstanceId);
  const { executions, activityInstances } = ctx.executions.adopt(rows.executions, rows.activityInstances);
  const tree = ExecutionTree.of(processInstanceId, executions, activityInstances);
  const root = tree.root;
  if (!root) return null;
  const definition = await env.definition(ctx, root.processDefinitionId);
  if (!definition) throw new ProcessEngineException(`Process definition '${root.processDefinitionId}' of instance '${processInstanceId}' is gone`);
  const variables = InstanceVariables.of(processInstanceId, ctx.variables.adopt(rows.variables));
  const runner = new ProcessRunner(ctx, env, tree, await env.models.get(ctx, definition), definition, variables);
  openInstances(ctx).set(processInstanceId, runner);
  return runner;
}

/**
 * What a job's or subscription's declaration (a priority, a timer, a retry cycle) is evaluated on:
 * its execution, the instance loaded for it (or already open in this command), or no variables
 * where there is none (a start event's).
 */
export async function expressionsOn(
  ctx: CommandContext,
  env: RuntimeEnvironment,
  processInstanceId: string | null,
  executionId: string | null,
): Promise<{ execution: Execution | undefined; evaluate(expression: string): unknown }> {
  const runner = processInstanceId ? await openInstance(ctx, env, processInstanceId) : null;
  const execution = runner && executionId ? runner.tree.executions.get(executionId) : undefined;
  return { execution, evaluate: (expression) => (runner && execution ? runner.evaluate(execution, expression) : evaluateExpression(expression, NO_VARIABLES)) };
}

/** A runner for an instance this command creates. */
export async function newInstance(ctx: CommandContext, env: RuntimeEnvironment, definition: ProcessDefinition, processInstanceId: string): Promise<ProcessRunner> {
  const runner = new ProcessRunner(ctx, env, ExecutionTree.empty(processInstanceId), await env.models.get(ctx, definition), definition, InstanceVariables.empty(processInstanceId));
  runner.isNew = true;
  openInstances(ctx).set(processInstanceId, runner);
  return runner;
}

/**
 * Runs the runner's agenda and writes the instance: tree, variables, and, when it ended, removes
 * what is left. A runner already running further up the stack picks the new steps up itself.
 */
export async function completeRun(ctx: CommandContext, runner: ProcessRunner): Promise<void> {
  if (runner.running) return;
  await runner.run();
  countMetrics(ctx, runner);
  const id = runner.tree.processInstanceId;
  if (runner.ended) {
    openInstances(ctx).delete(id);
    // Its variable rows go with the instance, but history keeps what this command set (Camunda writes it at set time).
    await runner.variables.flush(ctx, false);
    // An instance that started and ended in this command without writing anything leaves nothing to remove.
    if (runner.isNew && !runner.wroteRows && !runner.tree.wroteRows) return;
    if (!runner.tree.instanceRowsDeleted) await deleteInstanceRows(ctx.trx, ctx.dialect, id);
    return;
  }
  await runner.variables.flush(ctx);
}

/** Engine metrics count committed work only: what this run started is added after commit. */
function countMetrics(ctx: CommandContext, runner: ProcessRunner): void {
  const { flowNodesStarted, startedRootInstance } = runner;
  const { flowNodesEnded } = runner.tree;
  runner.flowNodesStarted = 0;
  runner.startedRootInstance = false;
  runner.tree.flowNodesEnded = 0;
  if (flowNodesStarted === 0 && flowNodesEnded === 0 && !startedRootInstance) return;
  ctx.afterCommit(() => {
    runner.env.metrics.mark('activity-instance-start', flowNodesStarted);
    runner.env.metrics.mark('activity-instance-end', flowNodesEnded);
    if (startedRootInstance) runner.env.metrics.mark('root-process-instance-start');
  });
}
