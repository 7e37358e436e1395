import type { ScriptModel } from '../bpmn/index.js';
import { startsAsExpression } from '../bpmn/parse/moddle-element.js';
import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException, ScriptCompilationException, ScriptEvaluationException } from '../errors/exceptions.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import { evaluateOf } from './expressions/conditions.js';
import type { ExpressionContext } from './expressions/index.js';
import type { ProcessRunner } from './process-runner.js';
import type { RuntimeEnvironment } from './runtime-environment.js';
import { runScript, ScriptCompilationError } from './scripting/script-runner.js';
import { toJavaScriptValue, type TypedValue } from './variables/index.js';

/** Where a model's script runs: its element, its definition (for resources), how its expressions resolve. */
export interface ScriptSite {
  ctx: CommandContext;
  env: RuntimeEnvironment;
  definition: ProcessDefinition;
  elementId: string;
  expressions: ExpressionContext;
}

/**
 * Runs a model's script (script task, camunda:script in a listener or parameter, a script condition)
 * with the execution and its visible variables bound — only when the host enabled scripting.
 */
export function runElementScript(
  runner: ProcessRunner,
  execution: Execution,
  script: ScriptModel,
  elementId: string,
  extraBindings: Record<string, unknown> = {},
): Promise<unknown> {
  const site = { ctx: runner.ctx, env: runner.env, definition: runner.definition, elementId, expressions: runner.expressionContext(execution) };
  return runScriptAt(site, script, { ...scriptBindings(runner.variables.visible(execution.id)), execution: executionFacade(execution, runner), ...extraBindings });
}

/** Variables as a script's globals (JavaScript values). */
export const scriptBindings = (variables: Record<string, TypedValue>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, toJavaScriptValue(value)]));

/**
 * Runs a script at its site with the given globals. As Camunda's ScriptUtil, a source or resource
 * that is an expression (`${…}`, `#{…}`) is evaluated first and names the script's text or resource.
 */
export async function runScriptAt(site: ScriptSite, script: ScriptModel, bindings: Record<string, unknown>): Promise<unknown> {
  const format = script.format ?? 'javascript';
  if (!site.env.config.scripting.enabled) {
    throw new ProcessEngineException(
      `Cannot run the ${format} script of element '${site.elementId}': scripting is disabled (enable it with the engine option scripting.enabled)`,
    );
  }
  const dynamic = (text: string) => (startsAsExpression(text) ? String(evaluateOf(text, site.expressions)) : text);
  const source = script.source !== null ? dynamic(script.source) : await loadResource(site, script.resource === null ? null : dynamic(script.resource));
  try {
    return runScript(source, format, bindings, { timeoutMs: site.env.config.scripting.timeoutMs });
  } catch (error) {
    // Camunda's SourceExecutableScript: a script that does not compile fails as such, one that fails running names where.
    if (error instanceof ScriptCompilationError) throw new ScriptCompilationException(`Unable to compile script: ${error.message}`, { cause: error });
    throw new ScriptEvaluationException(
      `Unable to evaluate script while executing activity '${site.elementId}' in the process definition with id '${site.definition.id}': ${(error as Error).message}`,
      { cause: error },
    );
  }
}

async function loadResource(site: ScriptSite, resource: string | null): Promise<string> {
  if (!resource) throw new ProcessEngineException(`The script of element '${site.elementId}' has neither source nor resource`);
  const name = resource.replace(/^(deployment|classpath):\/\//, '');
  const data = await site.ctx.resources.findDataByName(site.definition.deploymentId, name);
  if (!data) throw new ProcessEngineException(`Unable to find resource at path ${resource}`);
  return data.bytes.toString('utf8');
}
