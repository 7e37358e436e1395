import type { TenantChecked } from '../../authorization/tenant-check.js';
import type { Page, Sorting } from '../../persistence/repositories/query-support.js';

/** One process definition's row in Camunda's CleanableHistoricProcessInstanceReport. */
export interface CleanableHistoricProcessInstanceReportResult {
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string | null;
  processDefinitionVersion: number;
  historyTimeToLive: number | null;
  finishedProcessInstanceCount: number;
  cleanableProcessInstanceCount: number;
  tenantId: string | null;
}

export interface CleanableHistoricProcessInstanceReportQuery extends Page, TenantChecked {
  processDefinitionIdIn?: string[];
  processDefinitionKeyIn?: string[];
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  /** Leave out definitions without finished instances (and, removal-time based, without cleanable ones). */
  compact?: boolean;
  sorting?: Sorting<'finished'>[];
}

/** Camunda's HistoricActivityStatistics: one activity of a definition, counted over its history. */
export interface HistoricActivityStatistics {
  id: string;
  /** Running instances of the activity. */
  instances: number;
  finished: number;
  canceled: number;
  completeScope: number;
  openIncidents: number;
  resolvedIncidents: number;
  deletedIncidents: number;
}

export interface HistoricActivityStatisticsQuery {
  processDefinitionId: string;
  /** Include the counts (and the activities having only such instances); otherwise they are 0. */
  finished?: boolean;
  canceled?: boolean;
  completeScope?: boolean;
  incidents?: boolean;
  /** Bounds on the process instance's start and end. */
  startedBefore?: Date;
  startedAfter?: Date;
  finishedBefore?: Date;
  finishedAfter?: Date;
  processInstanceIdIn?: string[];
  sorting?: Sorting<'activityId'>[];
}

export type ReportPeriodUnit = 'MONTH' | 'QUARTER';

/** Camunda's DurationReportResult: durations of finished instances started in one month or quarter (of any year). */
export interface DurationReportResult {
  period: number;
  periodUnit: ReportPeriodUnit;
  minimum: number;
  maximum: number;
  average: number;
}

export interface HistoricProcessInstanceReportQuery extends TenantChecked {
  processDefinitionIdIn?: string[];
  processDefinitionKeyIn?: string[];
  startedBefore?: Date;
  startedAfter?: Date;
}
