import type { CalledProcessDefinition, ProcessDefinition } from '@trellis/core';

export interface ProcessDefinitionDto {
  id: string;
  key: string;
  category: string | null;
  description: string | null;
  name: string | null;
  version: number;
  resource: string;
  deploymentId: string;
  diagram: string | null;
  suspended: boolean;
  tenantId: string | null;
  versionTag: string | null;
  historyTimeToLive: number | null;
  startableInTasklist: boolean;
}

export function toProcessDefinitionDto(definition: ProcessDefinition): ProcessDefinitionDto {
  return {
    id: definition.id,
    key: definition.key,
    category: definition.category,
    description: definition.description,
    name: definition.name,
    version: definition.version,
    resource: definition.resourceName,
    deploymentId: definition.deploymentId,
    diagram: definition.diagramResourceName,
    suspended: definition.suspended,
    tenantId: definition.tenantId,
    versionTag: definition.versionTag,
    historyTimeToLive: definition.historyTimeToLive,
    startableInTasklist: definition.startableInTasklist,
  };
}

export function toCalledProcessDefinitionDto(called: CalledProcessDefinition) {
  return {
    ...toProcessDefinitionDto(called),
    calledFromActivityIds: called.calledFromActivityIds,
    callingProcessDefinitionId: called.callingProcessDefinitionId,
  };
}
