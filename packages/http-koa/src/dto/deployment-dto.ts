import type { Deployment, DeploymentResource, DeploymentWithDefinitions } from '@trellis/core';
import { formatRestDate } from './dates.js';
import type { LinkDto } from './links.js';
import { selfLink } from './links.js';
import { toProcessDefinitionDto, type ProcessDefinitionDto } from './process-definition-dto.js';

export interface DeploymentDto {
  links: LinkDto[];
  id: string;
  name: string | null;
  source: string | null;
  deploymentTime: string;
  tenantId: string | null;
}

export interface DeploymentWithDefinitionsDto extends DeploymentDto {
  deployedProcessDefinitions: Record<string, ProcessDefinitionDto> | null;
  deployedCaseDefinitions: null;
  deployedDecisionDefinitions: null;
  deployedDecisionRequirementsDefinitions: null;
}

export function toDeploymentDto(deployment: Deployment, links: LinkDto[] = []): DeploymentDto {
  return {
    links,
    id: deployment.id,
    name: deployment.name,
    source: deployment.source,
    deploymentTime: formatRestDate(deployment.deploymentTime),
    tenantId: deployment.tenantId,
  };
}

/** Definitions of a kind that this deployment did not create are null, as in Camunda. */
export function toDeploymentWithDefinitionsDto(result: DeploymentWithDefinitions, baseUrl: string): DeploymentWithDefinitionsDto {
  const definitions = result.processDefinitions ?? [];
  return {
    ...toDeploymentDto(result.deployment, selfLink(baseUrl, `/deployment/${result.deployment.id}`)),
    deployedProcessDefinitions:
      definitions.length === 0 ? null : Object.fromEntries(definitions.map((d) => [d.id, toProcessDefinitionDto(d)])),
    deployedCaseDefinitions: null,
    deployedDecisionDefinitions: null,
    deployedDecisionRequirementsDefinitions: null,
  };
}

export function toDeploymentResourceDto(resource: DeploymentResource) {
  return { id: resource.id, name: resource.name, deploymentId: resource.deploymentId };
}
