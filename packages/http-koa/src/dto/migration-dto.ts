import type {
  MigratingProcessInstanceReport,
  MigrationInstruction,
  MigrationPlan,
  MigrationPlanInput,
  MigrationPlanReport,
  TypedValue,
} from '@trellis/core';
import { flag, text } from '../body.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { toVariableValueDto } from './variable-dto.js';
import { variablesFromDto } from './variables-map.js';

/** MigrationInstructionDto: the ids are one-element lists; updateEventTrigger is always a boolean on output. */
export const toInstructionDto = (instruction: MigrationInstruction) => ({
  sourceActivityIds: [instruction.sourceActivityId],
  targetActivityIds: [instruction.targetActivityId],
  updateEventTrigger: instruction.updateEventTrigger,
});

const variablesDto = (variables: Record<string, TypedValue> | null) =>
  variables === null ? null : Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, toVariableValueDto(value)]));

export const toMigrationPlanDto = (plan: MigrationPlan) => ({
  sourceProcessDefinitionId: plan.sourceProcessDefinitionId,
  targetProcessDefinitionId: plan.targetProcessDefinitionId,
  instructions: plan.instructions.map(toInstructionDto),
  variables: variablesDto(plan.variables),
});

export const toMigrationPlanReportDto = (report: MigrationPlanReport) => ({
  instructionReports: report.instructionReports.map((each) => ({ instruction: toInstructionDto(each.instruction), failures: each.failures })),
  variableReports: Object.fromEntries(
    Object.entries(report.variableReports).map(([name, each]) => [name, { ...toVariableValueDto(each.value), failures: each.failures }]),
  ),
});

export const toMigratingProcessInstanceReportDto = (report: MigratingProcessInstanceReport) => ({
  processInstanceId: report.processInstanceId,
  failures: report.failures,
  activityInstanceValidationReports: report.activityInstanceValidationReports.map((each) => ({
    migrationInstruction: each.migrationInstruction && toInstructionDto(each.migrationInstruction),
    activityInstanceId: each.activityInstanceId,
    sourceScopeId: each.sourceScopeId,
    failures: each.failures,
  })),
  transitionInstanceValidationReports: report.transitionInstanceValidationReports.map((each) => ({
    migrationInstruction: each.migrationInstruction && toInstructionDto(each.migrationInstruction),
    transitionInstanceId: each.transitionInstanceId,
    sourceScopeId: each.sourceScopeId,
    failures: each.failures,
  })),
});

const firstId = (ids: unknown): string | null => (Array.isArray(ids) && typeof ids[0] === 'string' ? ids[0] : null);

/** MigrationPlanDto → engine input: only element [0] of each id list is read; a missing updateEventTrigger is false. */
export function fromMigrationPlanDto(body: Record<string, unknown>): MigrationPlanInput {
  if (body.instructions !== undefined && body.instructions !== null && !Array.isArray(body.instructions)) throw new InvalidRequestException(400, '');
  const instructions = ((body.instructions as unknown[] | null | undefined) ?? []).map((raw) => {
    const each = (raw ?? {}) as Record<string, unknown>;
    return { sourceActivityId: firstId(each.sourceActivityIds), targetActivityId: firstId(each.targetActivityIds), updateEventTrigger: flag(each.updateEventTrigger) };
  });
  return {
    sourceProcessDefinitionId: text(body.sourceProcessDefinitionId),
    targetProcessDefinitionId: text(body.targetProcessDefinitionId),
    instructions,
    variables: body.variables === undefined || body.variables === null ? null : variablesFromDto(body.variables),
  };
}
