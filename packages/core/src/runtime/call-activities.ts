import type { FlowElementModel } from '../bpmn/index.js';
import { NullValueException, ProcessEngineException } from '../errors/exceptions.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import type { Execution } from './execution.js';
import { mapInputVariables, mapOutputVariables } from './call-variable-mapping.js';
import { completeRun, openInstance } from './open-instance.js';
import { cancelActivityOfCalledInstance } from './modification.js';
import type { EscalationOutcome, ProcessRunner } from './process-runner.js';
import { startInstance } from './start-instance.js';
import { toJavaScriptValue, untypedValue, type TypedValue } from './variables/index.js';

interface Mapping {
  $type: string;
  source?: string;
  sourceExpression?: string;
  target?: string;
  variables?: string;
  businessKey?: string;
  local?: boolean;
}

const mappings = (element: Pick<FlowElementModel, 'extensions'>, type: 'camunda:In' | 'camunda:Out') =>
  (element.extensions as Mapping[]).filter((extension) => extension?.$type === type);

/**
 * The camunda:in payload of a call activity, or of a signal's event definition (Camunda's
 * CallableElement.getInputVariables and getBusinessKey): the variables it passes and the business key.
 */
export function inputPayload(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  holder: Pick<FlowElementModel, 'extensions'> = element,
): { variables: Record<string, TypedValue>; businessKey: string | null } {
  const variables: Record<string, TypedValue> = {};
  let businessKey: string | null = null;
  // local="true" reads the call activity's own variables only (Camunda's VariableScopeLocalAdapter), which
  // it has when it is a scope of its own (input mappings); a signal's payload reads its execution's locals.
  const ownScope = holder !== element || (execution.isScope && execution.scopeActivityId === element.id);
  const local = (name: string) => (ownScope ? runner.variables.getLocal(execution.id, name) : undefined);
  const locals = () => (ownScope ? runner.variables.snapshot(execution.id) : {});
  for (const mapping of mappings(holder, 'camunda:In')) {
    if (mapping.businessKey !== undefined) {
      businessKey = stringOrNull(runner.evaluate(execution, mapping.businessKey));
      continue;
    }
    const isLocal = mapping.local === true;
    Object.assign(variables, mapped(runner, execution, mapping, isLocal ? local : (name) => runner.variables.lookup(execution.id, name), isLocal ? locals : () => runner.variables.visible(execution.id)));
  }
  return { variables, businessKey };
}

/**
 * Starts the called process (camunda:in, the variable mapping, camunda:calledElementBinding; Camunda's
 * order) with the call activity's execution as its super execution.
 */
export async function startCalledInstance(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<void> {
  const { variables: input, businessKey } = inputPayload(runner, execution, element);
  await mapInputVariables(runner, execution, element, input);
  const definition = await calledDefinition(runner, execution, element);
  const model = await runner.env.models.get(runner.ctx, definition);
  const start = model.initialActivity();
  if (!start) throw new ProcessEngineException(`Process definition '${definition.id}' has no none start event to start from`);
  const called = await startInstance(runner.ctx, runner.env, definition, { businessKey, variables: input, startActivityId: start.id, superExecution: execution });
  runner.tree.history.calledInstance(execution.activityInstanceId, called.tree.processInstanceId);
}

/** A called instance ended: its caller receives camunda:out variables and leaves the call activity. */
export async function resumeCallingInstance(called: ProcessRunner, root: Execution): Promise<void> {
  if (!root.superProcessInstanceId || !root.superExecutionId) return;
  const caller = await openInstance(called.ctx, called.env, root.superProcessInstanceId);
  const execution = caller?.tree.executions.get(root.superExecutionId);
  if (!caller || !execution) return;
  await passOutputVariables(called, root, caller, execution);
  caller.leave(execution);
  await completeRun(caller.ctx, caller);
}

/**
 * A called instance deleted, or emptied by a modification, did not end: Camunda cancels the call
 * activity's instance in the caller (AbstractDeleteProcessInstanceCmd, ModifyProcessInstanceCmd's
 * deletePropagate), ending the caller the same way when nothing else runs there, and so on up.
 * Instances cancelled from their caller, or by a BPMN error for it, are detached first and skip this.
 */
export async function cancelCallingActivity(called: ProcessRunner, root: Execution): Promise<void> {
  if (!root.superProcessInstanceId || !root.superExecutionId) return;
  const caller = await openInstance(called.ctx, called.env, root.superProcessInstanceId);
  const execution = caller?.tree.executions.get(root.superExecutionId);
  if (!caller || !execution) return;
  // Camunda runs the caller's modification with the deletion's skip flags.
  caller.skips = called.skips;
  await cancelActivityOfCalledInstance(caller, execution, called.tree.history.termination ?? { state: 'INTERNALLY_TERMINATED', deleteReason: null });
  await completeRun(caller.ctx, caller);
}

/** camunda:out, then the variable mapping: the called instance's variables the call activity's execution receives. */
async function passOutputVariables(called: ProcessRunner, root: Execution, caller: ProcessRunner, execution: Execution): Promise<void> {
  const element = caller.elementOf(execution);
  const output: Record<string, TypedValue> = {};
  const outputLocal: Record<string, TypedValue> = {};
  for (const mapping of mappings(element, 'camunda:Out')) {
    Object.assign(mapping.local === true ? outputLocal : output, mapped(called, root, mapping, (name) => called.variables.get(name), () => called.variables.snapshot()));
  }
  // Camunda's CallableElementActivityBehavior.variablesFilter: a multi-instance body's counters are never overwritten.
  for (const name of MI_COUNTERS) {
    delete output[name];
    delete outputLocal[name];
  }
  for (const [name, value] of Object.entries(output)) caller.variables.setVisible(execution.id, name, value);
  // local="true": on the call activity's own scope (seen by its output mappings and end listeners), gone when it ends.
  if (execution.isScope && execution.scopeActivityId === element.id) {
    for (const [name, value] of Object.entries(outputLocal)) caller.variables.setLocal(execution.id, name, value);
  }
  await mapOutputVariables(caller, execution, called, root);
}

const MI_COUNTERS = ['nrOfInstances', 'nrOfActiveInstances', 'nrOfCompletedInstances'];

/**
 * An escalation nobody in the called instance catches goes on to its caller, with the camunda:out
 * variables (Camunda's OutputVariablesPropagator), and from there to the caller's caller. An
 * interrupting event that catches it cancels the call activity and with it the called instance.
 */
export async function escalateToCaller(called: ProcessRunner, root: Execution, escalationCode: string): Promise<EscalationOutcome> {
  const caller = await openInstance(called.ctx, called.env, root.superProcessInstanceId!);
  const execution = caller?.tree.executions.get(root.superExecutionId!);
  if (!caller || !execution) return 'uncaught';
  await passOutputVariables(called, root, caller, execution);
  const found = caller.escalationCatchFor(execution, escalationCode);
  if (found) {
    caller.schedule(execution, () => caller.fireEscalationCatch(found, escalationCode));
    await completeRun(caller.ctx, caller);
    return found.interrupting ? 'interrupted' : 'caught';
  }
  const callerRoot = caller.tree.root;
  const outcome = callerRoot?.superExecutionId ? await escalateToCaller(caller, callerRoot, escalationCode) : 'uncaught';
  // Cancelled from further up, the caller has been written already.
  if (outcome !== 'interrupted') await completeRun(caller.ctx, caller);
  return outcome;
}

/** Whether an error the called instance does not catch is caught by its caller, or the caller's caller, and so on. */
export async function callerCatchesError(called: ProcessRunner, root: Execution, errorCode: string): Promise<boolean> {
  const caller = await openInstance(called.ctx, called.env, root.superProcessInstanceId!);
  const execution = caller?.tree.executions.get(root.superExecutionId!);
  if (!caller || !execution) return false;
  if (caller.errorCatchFor(execution, errorCode)) return true;
  const callerRoot = caller.tree.root;
  return callerRoot?.superExecutionId ? callerCatchesError(caller, callerRoot, errorCode) : false;
}

/**
 * A BPMN error nobody in the called instance catches goes to the call activity with the
 * camunda:out variables (Camunda's OutputVariablesPropagator): the called instance ends
 * (cancelled), and the caller's execution throws the error on. False when the caller cannot be found.
 */
export async function propagateErrorToCaller(called: ProcessRunner, root: Execution, errorCode: string, errorMessage: string | null): Promise<boolean> {
  const caller = await openInstance(called.ctx, called.env, root.superProcessInstanceId!);
  const execution = caller?.tree.executions.get(root.superExecutionId!);
  if (!caller || !execution) return false;
  await passOutputVariables(called, root, caller, execution);
  root.superExecutionId = null;
  root.superProcessInstanceId = null;
  called.tree.touch(root);
  await called.cancelInstance();
  caller.schedule(execution, () => caller.throwError(execution, errorCode, errorMessage));
  await completeRun(caller.ctx, caller);
  return true;
}

/** Executions that are removed take the instances they called with them. */
export async function cancelCalledInstances(runner: ProcessRunner, executionIds: readonly string[]): Promise<void> {
  for (const executionId of executionIds) {
    for (const calledId of await runner.ctx.executions.findCalledInstanceIds(executionId)) {
      const called = await openInstance(runner.ctx, runner.env, calledId);
      // An instance that has just ended (its end resumed this caller) has nothing left to cancel.
      if (!called || called.ended || !called.tree.root) continue;
      called.tree.root.superExecutionId = null;
      called.tree.root.superProcessInstanceId = null;
      // Deleting the caller deletes what it called the same way; anything else cancels it from inside.
      const { state, deleteReason } = runner.tree.history.termination ?? {
        state: runner.externalCancellation ? ('EXTERNALLY_TERMINATED' as const) : ('INTERNALLY_TERMINATED' as const),
        deleteReason: null,
      };
      called.tree.history.terminate(state, deleteReason);
      // Camunda's PvmAtomicOperationDeleteCascade hands its skip flags down to the called instance.
      called.skips = runner.skips;
      await called.cancelInstance();
      await completeRun(runner.ctx, called);
    }
  }
}

function mapped(
  runner: ProcessRunner,
  execution: Execution,
  mapping: Mapping,
  lookup: (name: string) => TypedValue | undefined,
  all: () => Record<string, TypedValue>,
): Record<string, TypedValue> {
  if (mapping.variables === 'all') return { ...all() };
  if (!mapping.target) return {};
  if (mapping.sourceExpression) {
    return { [mapping.target]: untypedValue(runner.evaluate(execution, mapping.sourceExpression)) };
  }
  if (mapping.source) {
    const value = lookup(mapping.source);
    return { [mapping.target]: value ?? untypedValue(null) };
  }
  return {};
}

async function calledDefinition(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<ProcessDefinition> {
  const key = String(runner.evaluate(execution, element.calledElement ?? '') ?? '');
  const binding = String(element.camunda.calledElementBinding ?? 'latest');
  // camunda:calledElementTenantId picks the called definition's tenant (an expression may compute it); default: the caller's.
  const tenantText = element.camunda.calledElementTenantId;
  const tenantValue = typeof tenantText === 'string' && tenantText !== '' ? runner.evaluate(execution, tenantText) : undefined;
  const tenantId = tenantValue === undefined ? runner.definition.tenantId : tenantValue === null ? null : String(tenantValue);
  const repo = runner.ctx.processDefinitions;
  let found: ProcessDefinition | null | undefined;
  // Camunda's ProcessDefinitionCache.checkInvalidDefinition… texts, one per binding.
  let missing: string;
  if (binding === 'deployment') {
    found = (await repo.find({ key, deploymentId: runner.definition.deploymentId }))[0];
    missing = `no processes deployed with key = '${key}' in deployment = '${runner.definition.deploymentId}'`;
  } else if (binding === 'version') {
    const version = Number(runner.evaluate(execution, String(element.camunda.calledElementVersion ?? '')));
    found = (await repo.find({ key, version, ...(tenantId ? { tenantIdIn: [tenantId] } : { withoutTenantId: true }) }))[0];
    missing = `no processes deployed with key = '${key}', version = '${version}' and tenant-id = '${tenantId}'`;
  } else if (binding === 'versionTag') {
    const versionTag = String(runner.evaluate(execution, String(element.camunda.calledElementVersionTag ?? '')));
    found = (await repo.find({ key, versionTag, ...(tenantId ? { tenantIdIn: [tenantId] } : { withoutTenantId: true }) }))[0];
    missing = `no processes deployed with key = '${key}', versionTag = '${versionTag}' and tenant-id = '${tenantId}'`;
  } else {
    found = await repo.findLatestByKey(key, tenantId);
    missing = `no processes deployed with key '${key}' and tenant-id '${tenantId}'`;
  }
  if (!found) throw new NullValueException(`${missing}: processDefinition is null`);
  return found;
}

const stringOrNull = (value: unknown) => (value === null || value === undefined ? null : String(toJavaScriptValue(untypedValue(value))));
