import type { ProcessModel } from '../../bpmn/index.js';
import { isJavaSerialized, javaSerializationProhibited, type TypedValue } from '../../runtime/variables/index.js';
import {
  behaviorOf,
  childrenOf,
  definesPersistentEventTrigger,
  eligibleForGeneration,
  eventScopeOf,
  hasTimeoutListener,
  flowScopeOf,
  isBoundaryEvent,
  isConditionalEvent,
  isEventSubProcessStart,
  isWaitStateGateway,
  MI_BODY_SUFFIX,
  resolveActivity,
  sameBehavior,
  type MigrationActivity,
} from './migration-activities.js';
import type { MigrationInstruction, MigrationPlanReport, MigrationVariableReport } from './migration-plan.js';

/** Both sides of a plan: the definitions' ids and parsed models. */
export interface PlanSides {
  sourceId: string;
  targetId: string;
  source: ProcessModel;
  target: ProcessModel;
}

/** An instruction whose activities were found (Camunda's ValidatingMigrationInstruction). */
interface Resolved {
  instruction: MigrationInstruction;
  source: MigrationActivity;
  target: MigrationActivity;
}

/** Generates the instructions for activities that are equal in both definitions (DefaultMigrationInstructionGenerator). */
export function generateInstructions(sides: PlanSides, updateEventTriggers: boolean): MigrationInstruction[] {
  const all: Resolved[] = [];
  const generate = (sourceScope: MigrationActivity | null, targetScope: MigrationActivity | null) => {
    const proposed: Resolved[] = [];
    const sourceChildren = generationOrder(sides.source, sourceScope);
    const targetChildren = generationOrder(sides.target, targetScope);
    for (const source of sourceChildren) {
      if (!eligibleForGeneration(sides.source, source)) continue;
      for (const target of targetChildren) {
        if (proposed.some((each) => each.source.id === source.id) || all.some((each) => each.source.id === source.id)) break;
        if (source.id !== target.id || !eligibleForGeneration(sides.target, target)) continue;
        const updateEventTrigger = isConditionalEvent(source) || (updateEventTriggers && definesPersistentEventTrigger(sides.source, source));
        proposed.push({ instruction: { sourceActivityId: source.id, targetActivityId: target.id, updateEventTrigger }, source, target });
      }
    }
    const candidates = [...all, ...proposed];
    const valid = proposed.filter((each) => validateInstruction(sides, each, candidates, false).length === 0);
    all.push(...valid);
    for (const each of valid) {
      const flowScope = each.source.body || each.source.element.type === 'bpmn:SubProcess' || each.source.element.type === 'bpmn:Transaction';
      if (flowScope) generate(each.source, each.target);
    }
  };
  generate(null, null);
  return all.filter((each) => validateInstruction(sides, each, all, true).length === 0).map((each) => each.instruction);
}

/** Where BpmnParse puts each kind of activity among its scope's (the rest, 1, between). */
const PARSE_RANK: Readonly<Record<string, number>> = {
  'bpmn:StartEvent': 0,
  'bpmn:IntermediateCatchEvent': 2,
  'bpmn:EndEvent': 3,
  'bpmn:BoundaryEvent': 4,
};

/**
 * A scope's activities in the order Camunda's generator meets them: as BpmnParse creates them (start
 * events, the other activities, intermediate catch events, end events, boundary events, compensation
 * handlers last), then the scope's event activities (the start events of its event sub-processes).
 */
function generationOrder(model: ProcessModel, scope: MigrationActivity | null): MigrationActivity[] {
  const children = childrenOf(model, scope);
  const rank = (activity: MigrationActivity) => (activity.body ? 1 : activity.element.isForCompensation ? 5 : (PARSE_RANK[activity.element.type] ?? 1));
  const parsed = children.map((activity, index) => ({ activity, index })).sort((a, b) => rank(a.activity) - rank(b.activity) || a.index - b.index);
  const eventActivities = children
    .filter((child) => !child.body && child.element.triggeredByEvent)
    .flatMap((subProcess) => childrenOf(model, subProcess).filter((child) => isEventSubProcessStart(model, child)));
  return [...parsed.map(({ activity }) => activity), ...eventActivities];
}

/** Validates a plan's instructions and variables; the report lists only what failed. */
export function validatePlan(sides: PlanSides, instructions: MigrationInstruction[], variables: Record<string, TypedValue> | null): MigrationPlanReport {
  const report: MigrationPlanReport = { instructionReports: [], variableReports: {} };
  const resolved: Resolved[] = [];
  // Camunda's order: first the instructions whose activities are missing (a null id; else an id that
  // names no activity), then, of the others, those a validator refuses.
  for (const instruction of instructions) {
    const failures: string[] = [];
    const { sourceActivityId, targetActivityId } = instruction;
    if (sourceActivityId == null || targetActivityId == null) {
      if (sourceActivityId == null) failures.push('Source activity id is null');
      if (targetActivityId == null) failures.push('Target activity id is null');
    } else {
      const source = resolveActivity(sides.source, sourceActivityId);
      const target = resolveActivity(sides.target, targetActivityId);
      if (source && target) resolved.push({ instruction, source, target });
      if (!source) failures.push(`Source activity '${sourceActivityId}' does not exist`);
      if (!target) failures.push(`Target activity '${targetActivityId}' does not exist`);
    }
    if (failures.length > 0) report.instructionReports.push({ instruction, failures });
  }
  for (const each of resolved) {
    const failures = validateInstruction(sides, each, resolved, true);
    if (failures.length > 0) report.instructionReports.push({ instruction: each.instruction, failures });
  }
  for (const [name, value] of Object.entries(variables ?? {})) {
    const failures: string[] = [];
    if (isJavaSerialized(value)) failures.push(javaSerializationProhibited(name));
    if (failures.length > 0) report.variableReports[name] = { value, failures } satisfies MigrationVariableReport;
  }
  return report;
}

export const hasFailures = (report: MigrationPlanReport) => report.instructionReports.length > 0 || Object.keys(report.variableReports).length > 0;

/** Camunda's default instruction validators, in engine order; `withMultiInstance` adds the two inner-activity ones. */
function validateInstruction(sides: PlanSides, current: Resolved, all: Resolved[], withMultiInstance: boolean): string[] {
  const failures: string[] = [];
  const { source, target, instruction } = current;
  const mappedFrom = (sourceId: string) => all.filter((each) => each.source.id === sourceId);
  const isTargeted = (targetId: string) => all.some((each) => each.target.id === targetId);

  // 1 SameBehaviorInstructionValidator
  const sourceBehavior = behaviorOf(sides.source, source);
  const targetBehavior = behaviorOf(sides.target, target);
  if (!sameBehavior(sourceBehavior, targetBehavior)) {
    failures.push(`Activities have incompatible types (${sourceBehavior} is not compatible with ${targetBehavior})`);
  }

  // 2 SameEventTypeValidator
  const isEventTrigger = (model: ProcessModel, activity: MigrationActivity) => isBoundaryEvent(activity) || isEventSubProcessStart(model, activity);
  if (isEventTrigger(sides.source, source) && isEventTrigger(sides.target, target) && source.element.activityType !== target.element.activityType) {
    failures.push(`Events are not of the same type (${source.element.activityType} != ${target.element.activityType})`);
  }

  // 3 OnlyOnceMappedActivityInstructionValidator
  const sameSource = mappedFrom(source.id);
  if (sameSource.length > 1) {
    const list = sameSource
      .map((each) => `ValidatingMigrationInstructionImpl{sourceActivity=Activity(${each.source.id}), targetActivity=Activity(${each.target.id})}`)
      .join(', ');
    failures.push(`There are multiple mappings for source activity id '${source.id}': ${list}`);
  }

  // 4 CannotAddMultiInstanceBodyValidator
  for (let scope = flowScopeOf(sides.target, target); scope !== null && !isTargeted(scope.id); scope = flowScopeOf(sides.target, scope)) {
    if (scope.body) {
      failures.push(`Target activity '${target.id}' is a descendant of multi-instance body '${scope.id}' that is not mapped from the source process definition.`);
      break;
    }
  }

  if (withMultiInstance) {
    // 5 CannotAddMultiInstanceInnerActivityValidator
    if (target.body && !isTargeted(target.id.slice(0, -MI_BODY_SUFFIX.length))) failures.push('Must map the inner activity of a multi-instance body when the body is mapped');
    // 6 CannotRemoveMultiInstanceInnerActivityValidator
    if (source.body && mappedFrom(source.id.slice(0, -MI_BODY_SUFFIX.length)).length === 0) {
      failures.push('Cannot remove the inner activity of a multi-instance body when the body is mapped');
    }
  }

  // 7 GatewayMappingValidator
  if (isWaitStateGateway(target)) {
    if (sides.target.flowsTo(target.id).length < sides.source.flowsTo(source.id).length) {
      failures.push('The target gateway must have at least the same number of incoming sequence flows that the source gateway has');
    }
    const sourceScope = flowScopeOf(sides.source, source);
    if (sourceScope !== null && mappedFrom(sourceScope.id).length === 0) failures.push(`The gateway's flow scope '${sourceScope.id}' must be mapped`);
    if (all.some((each) => each !== current && each.target.id === target.id)) failures.push(`Only one gateway can be mapped to gateway '${target.id}'`);
  }

  // 8 SameEventScopeInstructionValidator: only an event scope other than the flow scope must match.
  const sourceEventScope = eventScopeOf(sides.source, source);
  const isCompensationBoundary = isBoundaryEvent(source) && source.element.activityType === 'compensationBoundaryCatch';
  const isFlowScope = (sourceEventScope?.id ?? null) === (flowScopeOf(sides.source, source)?.id ?? null);
  if (sourceEventScope !== undefined && !isFlowScope && !isCompensationBoundary) {
    const targetEventScope = eventScopeOf(sides.target, target);
    const sourceScopeId = sourceEventScope === null ? sides.sourceId : sourceEventScope.id;
    if (targetEventScope === undefined) {
      // A user task whose timeout listeners the target removed may do without.
      if (!hasTimeoutListener(source)) failures.push(`The source activity's event scope (${sourceScopeId}) must be mapped but the target activity has no event scope`);
    } else {
      const mapped =
        sourceEventScope === null ? targetEventScope === null : targetEventScope !== null && mappedFrom(sourceEventScope.id).some((each) => each.target.id === targetEventScope.id);
      if (!mapped) {
        const targetScopeId = targetEventScope === null ? sides.targetId : targetEventScope.id;
        failures.push(`The source activity's event scope (${sourceScopeId}) must be mapped to the target activity's event scope (${targetScopeId})`);
      }
    }
  }

  // 9 UpdateEventTriggersValidator
  if (instruction.updateEventTrigger && !definesPersistentEventTrigger(sides.source, source)) {
    failures.push('Cannot update event trigger because the activity does not define a persistent event trigger');
  }

  // 10 AdditionalFlowScopeInstructionValidator
  let ancestor: Resolved | undefined;
  for (let scope = flowScopeOf(sides.source, source); scope !== null && !ancestor; scope = flowScopeOf(sides.source, scope)) {
    ancestor = mappedFrom(scope.id)[0];
  }
  // Camunda names the target activity itself as "target scope", and a process-level target has no mapped ancestor.
  if (ancestor) {
    let found = false;
    for (let scope = flowScopeOf(sides.target, target); scope !== null && !found; scope = flowScopeOf(sides.target, scope)) found = scope.id === ancestor.target.id;
    if (!found) {
      failures.push(`The closest mapped ancestor '${ancestor.source.id}' is mapped to scope '${ancestor.target.id}' which is not an ancestor of target scope '${target.id}'`);
    }
  }

  // 11 ConditionalEventUpdateEventTriggerValidator
  if (isConditionalEvent(source) && !instruction.updateEventTrigger) failures.push('Conditional event has to migrate with update event trigger.');
  return failures;
}
