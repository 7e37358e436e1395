import type { ScriptModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import type { ProcessRunner } from './process-runner.js';
import { runScript } from './scripting/script-runner.js';
import { toJavaScriptValue } from './variables/index.js';

/**
 * Runs a model's script (script task, camunda:script in a listener or parameter) with the
 * execution and its visible variables bound — only when the host enabled scripting.
 */
export async function runElementScript(
  runner: ProcessRunner,
  execution: Execution,
  script: ScriptModel,
  elementId: string,
  extraBindings: Record<string, unknown> = {},
): Promise<unknown> {
  const format = script.format ?? 'javascript';
  if (!runner.env.config.scripting.enabled) {
    throw new ProcessEngineException(
      `Cannot run the ${format} script of element '${elementId}': scripting is disabled (enable it with the engine option scripting.enabled)`,
    );
  }
  const source = script.source ?? (await loadResource(runner, script.resource, elementId));
  const variables = runner.variables.visible(execution.id);
  const bindings: Record<string, unknown> = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, toJavaScriptValue(value)]));
  bindings.execution = executionFacade(execution, runner);
  Object.assign(bindings, extraBindings);
  try {
    return runScript(source, format, bindings, { timeoutMs: runner.env.config.scripting.timeoutMs });
  } catch (error) {
    throw new ProcessEngineException(
      `Unable to evaluate script while executing activity '${elementId}' in the process definition with id '${runner.definition.id}': ${(error as Error).message}`,
      { cause: error },
    );
  }
}

async function loadResource(runner: ProcessRunner, resource: string | null, elementId: string): Promise<string> {
  if (!resource) throw new ProcessEngineException(`The script of element '${elementId}' has neither source nor resource`);
  const name = resource.replace(/^(deployment|classpath):\/\//, '');
  const data = await runner.ctx.resources.findDataByName(runner.definition.deploymentId, name);
  if (!data) throw new ProcessEngineException(`Unable to find resource at path ${resource}`);
  return data.bytes.toString('utf8');
}
