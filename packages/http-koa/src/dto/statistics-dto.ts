import type { ActivityStatistics, ProcessDefinitionStatistics } from '@trellis/core';
import { toProcessDefinitionDto } from './process-definition-dto.js';

/** Camunda serializes every statistics item with its Jackson type id. */
const ACTIVITY_CLASS = 'org.camunda.bpm.engine.rest.dto.repository.ActivityStatisticsResultDto';
const DEFINITION_CLASS = 'org.camunda.bpm.engine.rest.dto.repository.ProcessDefinitionStatisticsResultDto';

export function toActivityStatisticsDto(statistics: ActivityStatistics) {
  return {
    '@class': ACTIVITY_CLASS,
    id: statistics.id,
    instances: statistics.instances,
    failedJobs: statistics.failedJobs,
    incidents: statistics.incidents.map(({ incidentType, incidentCount }) => ({ incidentType, incidentCount })),
  };
}

export function toProcessDefinitionStatisticsDto(statistics: ProcessDefinitionStatistics) {
  return {
    '@class': DEFINITION_CLASS,
    id: statistics.id,
    instances: statistics.instances,
    failedJobs: statistics.failedJobs,
    incidents: statistics.incidents.map(({ incidentType, incidentCount }) => ({ incidentType, incidentCount })),
    definition: toProcessDefinitionDto(statistics.definition),
  };
}
