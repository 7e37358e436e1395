import { BadUserRequestException } from '../../errors/exceptions.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { ProcessInstanceQuery } from '../runtime/process-instance.js';

/** One mapping of a source activity to a target activity (Camunda's MigrationInstruction). */
export interface MigrationInstruction {
  sourceActivityId: string | null;
  targetActivityId: string | null;
  updateEventTrigger: boolean;
}

/** A migration plan (Camunda's MigrationPlan): instructions plus variables to set on each migrated instance. */
export interface MigrationPlan {
  sourceProcessDefinitionId: string;
  targetProcessDefinitionId: string;
  instructions: MigrationInstruction[];
  /** null when the plan sets no variables. */
  variables: Record<string, TypedValue> | null;
}

/** What a caller passes to validate or execute: a plan whose ids may still be missing. */
export interface MigrationPlanInput {
  sourceProcessDefinitionId?: string | null;
  targetProcessDefinitionId?: string | null;
  instructions?: Array<{ sourceActivityId?: string | null; targetActivityId?: string | null; updateEventTrigger?: boolean | null }> | null;
  variables?: Record<string, TypedValue> | null;
}

export interface MigrationInstructionReport {
  instruction: MigrationInstruction;
  failures: string[];
}

export interface MigrationVariableReport {
  value: TypedValue;
  failures: string[];
}

/** Camunda's MigrationPlanValidationReport: only failing instructions and variables are listed. */
export interface MigrationPlanReport {
  instructionReports: MigrationInstructionReport[];
  variableReports: Record<string, MigrationVariableReport>;
}

export interface MigrationActivityInstanceReport {
  /** null when no instruction applied. */
  migrationInstruction: MigrationInstruction | null;
  activityInstanceId: string;
  sourceScopeId: string;
  failures: string[];
}

export interface MigrationTransitionInstanceReport {
  migrationInstruction: MigrationInstruction | null;
  transitionInstanceId: string;
  sourceScopeId: string;
  failures: string[];
}

/** Camunda's MigratingProcessInstanceValidationReport. */
export interface MigratingProcessInstanceReport {
  processInstanceId: string;
  failures: string[];
  activityInstanceValidationReports: MigrationActivityInstanceReport[];
  transitionInstanceValidationReports: MigrationTransitionInstanceReport[];
}

/** Which instances to migrate: the union of the ids and what the query finds. */
export interface MigrationExecution {
  processInstanceIds?: Array<string | null> | null;
  /** Returns the ids of the instances a process-instance query matches (the adapter translates its query body). */
  processInstanceQuery?: ProcessInstanceQuery | null;
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
}

/** Java's toString of a MigrationInstructionImpl, as Camunda's messages show it. */
export const instructionToString = (instruction: MigrationInstruction) =>
  `MigrationInstructionImpl{sourceActivityId='${instruction.sourceActivityId}', targetActivityId='${instruction.targetActivityId}', updateEventTrigger='${instruction.updateEventTrigger}'}`;

/** A plan failed creation-time validation (ENGINE-23001); carries the report. */
export class MigrationPlanValidationException extends BadUserRequestException {
  override readonly name: string = 'MigrationPlanValidationException';
  readonly validationReport: MigrationPlanReport;

  constructor(sourceProcessDefinitionId: string, targetProcessDefinitionId: string, report: MigrationPlanReport) {
    let message = `ENGINE-23001 Migration plan for process definition '${sourceProcessDefinitionId}' to '${targetProcessDefinitionId}' is not valid:\n`;
    for (const each of report.instructionReports) {
      message += `\t Migration instruction ${instructionToString(each.instruction)} is not valid:\n`;
      for (const failure of each.failures) message += `\t\t${failure}\n`;
    }
    for (const [name, each] of Object.entries(report.variableReports)) {
      message += `\t Migration variable ${name} is not valid:\n`;
      for (const failure of each.failures) message += `\t\t${failure}\n`;
    }
    super(message);
    this.validationReport = report;
  }
}

/** An instance cannot be migrated with the plan (ENGINE-23004); carries the report. */
export class MigratingProcessInstanceValidationException extends BadUserRequestException {
  override readonly name: string = 'MigratingProcessInstanceValidationException';
  readonly validationReport: MigratingProcessInstanceReport;

  constructor(report: MigratingProcessInstanceReport) {
    let message = `ENGINE-23004 Cannot migrate process instance '${report.processInstanceId}':\n`;
    for (const failure of report.failures) message += `\t${failure}\n`;
    for (const each of report.activityInstanceValidationReports) {
      message += `\tCannot migrate activity instance '${each.activityInstanceId}':\n`;
      for (const failure of each.failures) message += `\t\t${failure}\n`;
    }
    for (const each of report.transitionInstanceValidationReports) {
      message += `\tCannot migrate transition instance '${each.transitionInstanceId}':\n`;
      for (const failure of each.failures) message += `\t\t${failure}\n`;
    }
    super(message);
    this.validationReport = report;
  }
}
