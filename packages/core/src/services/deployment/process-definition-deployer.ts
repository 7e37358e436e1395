import { compensationLimit } from '../../runtime/compensation.js';
import type { CommandContext } from '../../command/command-context.js';
import { parseBpmnResource, type ProcessModel } from '../../bpmn/index.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ParseException, ProcessEngineException, type ParseProblem } from '../../errors/exceptions.js';
import { unsupportedReason } from '../../runtime/behaviors/behavior-registry.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import type { Deployment, DeploymentResourceData } from './deployment.js';
import { registerStartEventTriggers } from './start-event-triggers.js';
import { createJobDefinitions } from './job-definitions.js';
import { diagramResourceFor, isBpmnResource } from './resource-names.js';

// Camunda: a definition id longer than the id column falls back to a bare generated id.
const MAX_ID_LENGTH = 64;

/**
 * Parses the deployment's BPMN resources and stores one versioned process definition per
 * executable process. Any parse problem aborts the whole deployment (the caller's transaction).
 */
export async function deployProcessDefinitions(
  ctx: CommandContext,
  deployment: Deployment,
  resources: readonly DeploymentResourceData[],
): Promise<ProcessDefinition[]> {
  const parsed: Array<{ resource: DeploymentResourceData; model: ProcessModel }> = [];
  for (const resource of resources.filter((r) => isBpmnResource(r.name))) {
    const result = await parseBpmnResource(resource.name, resource.bytes.toString('utf8'), {
      historyTimeToLive: ctx.config.historyTimeToLive,
      enforceHistoryTimeToLive: ctx.config.enforceHistoryTimeToLive,
    });
    for (const model of result.processes) {
      refuseWhatCannotRun(resource.name, model);
      parsed.push({ resource, model });
    }
  }
  ensureNoDuplicateKeys(parsed.map(({ model }) => model.key));

  const resourceNames = new Set(resources.map((resource) => resource.name));
  const definitions: ProcessDefinition[] = [];
  for (const { resource, model } of parsed) {
    const previous = await ctx.processDefinitions.findLatestByKey(model.key, deployment.tenantId);
    const version = (await ctx.processDefinitions.maxVersion(model.key, deployment.tenantId)) + 1;
    const definition: ProcessDefinition = {
      id: versionedDefinitionId(model.key, version, ctx.ids.next()),
      key: model.key,
      name: model.name,
      description: model.documentation,
      category: model.category,
      version,
      versionTag: model.versionTag,
      resourceName: resource.name,
      diagramResourceName: diagramResourceFor(resource.name, model.key, resourceNames),
      deploymentId: deployment.id,
      deploymentTime: deployment.deploymentTime,
      tenantId: deployment.tenantId,
      suspended: false,
      historyTimeToLive: model.historyTimeToLive,
      startableInTasklist: model.isStartableInTasklist,
      hasStartFormKey: model.hasStartFormKey,
    };
    await ctx.processDefinitions.insert(definition, {
      users: model.candidateStarterUsers,
      groups: model.candidateStarterGroups,
    });
    await createJobDefinitions(ctx, definition, model);
    await registerStartEventTriggers(ctx, definition, model, previous);
    definitions.push(definition);
  }
  return definitions;
}

/** A model is refused at deployment when it holds an element Trellis cannot execute, never accepted and then stuck. */
function refuseWhatCannotRun(resourceName: string, model: ProcessModel): void {
  const errors: ParseProblem[] = [];
  for (const element of model.elements.values()) {
    const reason = unsupportedReason(element) ?? compensationLimit(model, element);
    if (reason) errors.push({ message: reason, line: 0, column: 0, mainElementId: element.id, elementIds: [element.id] });
  }
  if (errors.length === 0) return;
  const listed = errors.map((error) => `\n* ${error.message} | resource ${resourceName}`).join('');
  throw new ParseException(engineMessage('09', '005', `Could not parse BPMN process. Errors: ${listed}`), { [resourceName]: { errors, warnings: [] } });
}

/** Camunda's AbstractDefinitionDeployer.generateDefinitionId: `key:version:<generated id>`, or the generated id alone when that is longer than the id column. */
export function versionedDefinitionId(key: string, version: number, generated: string): string {
  const id = `${key}:${version}:${generated}`;
  return id.length <= MAX_ID_LENGTH ? id : generated;
}

/** Camunda's AbstractDefinitionDeployer.ensureNoDuplicateDefinitionKeys, per kind of definition. */
export function ensureNoDuplicateKeys(keys: readonly string[]): void {
  const seen = new Set<string>();
  for (const key of keys) {
    if (seen.has(key)) {
      throw new ProcessEngineException(`The deployment contains definitions with the same key '${key}' (id attribute), this is not allowed`);
    }
    seen.add(key);
  }
}
