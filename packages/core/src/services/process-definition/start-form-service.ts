import { checkCreateInstance } from '../../authorization/instance-checks.js';
import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException } from '../../errors/exceptions.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { StartProcessInstanceCmd, type StartedProcessInstance } from '../runtime/start-process-instance-cmd.js';
import type { ProcessDefinition } from './process-definition.js';
import { ensureDefinitionActive, noDeployedDefinition } from './process-definition-messages.js';
import { evaluateFormFields, formDeclarationsOf, formValueOf, renderFormFields, startFormDataOf, submitFormVariables, type FormField, type StartFormData } from './start-form.js';
import { beansContext } from './form-scope.js';
import { readFormProperties } from './form-properties.js';
import { formFieldsSubmitted } from '../../history/variable-history.js';
import { camundaFormDefinitionFor } from '../deployment/camunda-form-definitions.js';

/** A deployed form file (GET …/deployed-start-form). */
export interface DeployedForm {
  name: string;
  bytes: Buffer;
  /** A Camunda Forms (JSON) form rather than an HTML one. */
  isCamundaForm: boolean;
}

/**
 * Start forms of process definitions (Camunda's FormService, start-form half): form data, form
 * variables, the generated HTML form, the deployed form file, and submitting a start form.
 * Reading needs READ on the definition; submitting needs what starting needs.
 */
@injectable()
export class StartFormService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** The start event's form key, Camunda Form reference and form fields. NotFoundException for an unknown id. */
  getStartFormData(processDefinitionId: string): Promise<StartFormData> {
    return this.commands.run('GetStartFormCmd', async (ctx) => (await this.load(ctx, processDefinitionId)).form);
  }

  /** The form fields' default values as typed values, optionally limited to some names (unknown names ignored). */
  getStartFormVariables(processDefinitionId: string, variableNames?: readonly string[]): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetStartFormVariablesCmd', async (ctx) => {
      const result: Record<string, TypedValue> = {};
      for (const field of (await this.loadRead(ctx, processDefinitionId)).fields) {
        if (variableNames && !variableNames.includes(field.id)) continue;
        result[field.id] = formValueOf(field);
      }
      return result;
    });
  }

  /** The HTML Camunda's default form engine generates from the form fields, then the readable form properties; null when there are none. */
  getRenderedStartForm(processDefinitionId: string): Promise<string | null> {
    return this.commands.run('GetRenderedStartFormCmd', async (ctx) => {
      const { fields, properties } = await this.loadRead(ctx, processDefinitionId);
      return renderFormFields([...fields, ...properties]);
    });
  }

  /**
   * The deployment resource the form key (`embedded:deployment:…`, `camunda-forms:deployment:…`,
   * `deployment:…`) or the Camunda Form reference names. BadUserRequestException without a key or with a key
   * that names no deployed form; NotFoundException when the resource is missing.
   */
  getDeployedStartForm(processDefinitionId: string): Promise<DeployedForm> {
    return this.commands.run('GetDeployedStartFormCmd', async (ctx) => {
      const { definition, form } = await this.load(ctx, processDefinitionId);
      return deployedForm(ctx, definition.deploymentId, form);
    });
  }

  /**
   * Starts an instance through its start form: the form fields validate, convert and default the
   * submitted variables (FormFieldValidationException for a failed constraint), then the instance
   * starts as StartProcessInstanceCmd starts it.
   */
  submitStartForm(processDefinitionId: string, request: { businessKey?: string | null; variables?: Record<string, TypedValue> }): Promise<StartedProcessInstance> {
    return this.commands.run('SubmitStartFormCmd', async (ctx) => {
      const definition = await ctx.processDefinitions.findById(processDefinitionId);
      if (!definition) throw noDeployedDefinition(processDefinitionId);
      await checkCreateInstance(ctx, definition);
      // Camunda creates the instance (refused for a suspended definition) before the fields validate.
      ensureDefinitionActive(definition);
      const model = await this.env.models.get(ctx, definition);
      const form = formDeclarationsOf(model.initialActivity());
      // Defaults are evaluated on the new instance, which holds no variables yet (only the fields handled before).
      const variables = submitFormVariables(form, request.variables ?? {}, { variable: () => undefined, expressions: beansContext(this.env.delegates) });
      const started = await new StartProcessInstanceCmd(processDefinitionId, { businessKey: request.businessKey ?? null, variables }, this.env).execute(ctx);
      await formFieldsSubmitted(ctx, { processInstanceId: started.id, executionId: started.id, activityInstanceId: started.id, taskId: null, processDefinitionId, tenantId: definition.tenantId }, variables);
      return started;
    });
  }

  private async load(ctx: CommandContext, id: string): Promise<{ definition: ProcessDefinition; form: StartFormData }> {
    const definition = await ctx.processDefinitions.findById(id);
    if (!definition) throw noDeployedDefinition(id);
    ctx.tenantCheck.require(definition.tenantId, `get the process definition '${id}'`);
    await ctx.authz.check({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
    const model = await this.env.models.get(ctx, definition);
    return { definition, form: startFormDataOf(model.initialActivity()) };
  }

  /**
   * The start form's fields and readable form properties as read (Camunda's createStartFormData):
   * no instance exists, so their expressions see no variables, only beans.
   */
  private async loadRead(ctx: CommandContext, id: string): Promise<{ fields: FormField[]; properties: FormField[] }> {
    const { form } = await this.load(ctx, id);
    const expressions = beansContext(this.env.delegates);
    return { fields: evaluateFormFields(form.fields, expressions), properties: readFormProperties(form.properties, { variables: null, expressions }) };
  }
}

/**
 * Camunda's AbstractGetDeployedFormCmd: the deployment resource a form key (`embedded:deployment:…`,
 * `camunda-forms:deployment:…`, `deployment:…`) or a Camunda Form reference names.
 * BadUserRequestException without either or with a key that names no deployed form;
 * NotFoundException when the resource is missing.
 */
export async function deployedForm(
  ctx: CommandContext,
  deploymentId: string,
  { formKey, camundaFormRef: ref }: Pick<StartFormData, 'formKey' | 'camundaFormRef'>,
): Promise<DeployedForm> {
  if (formKey !== null) {
    const resourceName = deployedResourceName(formKey);
    const resource = await ctx.resources.findDataByName(deploymentId, resourceName);
    if (!resource) throw formNotFound(resourceName, deploymentId);
    return { name: resource.name, bytes: resource.bytes, isCamundaForm: formKey.endsWith('.form') };
  }
  if (ref !== null) {
    const definition = await camundaFormDefinitionFor(ctx, ref, deploymentId);
    if (!definition) {
      throw new NotFoundException(`No Camunda Form Definition was found for Camunda Form Ref: CamundaFormRefImpl [key=${ref.key}, binding=${ref.binding}, version=${ref.version}]`);
    }
    const resource = await ctx.resources.findDataByName(definition.deploymentId, definition.resourceName);
    if (!resource) throw formNotFound(definition.resourceName, definition.deploymentId);
    return { name: resource.name, bytes: resource.bytes, isCamundaForm: true };
  }
  throw new BadUserRequestException("One of the attributes 'formKey' and 'camunda:formRef' must be supplied but none were set.");
}

const EMBEDDED = 'embedded:';
const CAMUNDA_FORMS = 'camunda-forms:';
const DEPLOYMENT = 'deployment:';

function deployedResourceName(formKey: string): string {
  let key = formKey;
  if (key.startsWith(EMBEDDED)) key = key.slice(EMBEDDED.length);
  else if (key.startsWith(CAMUNDA_FORMS)) key = key.slice(CAMUNDA_FORMS.length);
  if (!key.startsWith(DEPLOYMENT)) throw new BadUserRequestException(`The form key '${formKey}' does not reference a deployed form.`);
  return key.slice(DEPLOYMENT.length);
}

const formNotFound = (resourceName: string, deploymentId: string) =>
  new NotFoundException(`The form with the resource name '${resourceName}' cannot be found in deployment with id ${deploymentId}`);
