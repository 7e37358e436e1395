import type Router from '@koa/router';
import { BadUserRequestException, type TypedValue, type VariableOperation } from '@trellis/core';
import { idList, readJsonObject } from '../body.js';
import { namedVariable, readBinaryVariable, writeBinaryVariable } from '../dto/binary-variable.js';
import { fromVariableValueDto, IllegalArgumentException, toVariableValueDto, VariableValueError } from '../dto/variable-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { asRestException, InvalidRequestException } from '../errors/rest-exception.js';
import type { RestContext } from './context.js';
import { jaxRsFlag } from '../query/parse-query.js';

/** How the variables of one kind of scope (a process instance, an execution, a task) are read and written. */
export interface VariableScopeAccess {
  all(id: string): Promise<Record<string, TypedValue>>;
  /** `operation`: how the user operation log names the call (POST: ModifyVariable, PUT and uploads: SetVariable). */
  update(id: string, modifications: Record<string, TypedValue>, deletions: readonly string[], operation: VariableOperation): Promise<void>;
  remove(id: string, names: readonly string[]): Promise<void>;
}

/**
 * Camunda's AbstractVariablesResource at `path` (with `:id`): the list, modifications, and one
 * variable to get, put, delete, download and upload. `typeName` names the scope in messages ("process
 * instance", "execution", "task"). The engine's errors pass as Camunda's resource passes them: the
 * list as they are, everything else as a 500 RestException `Cannot <verb> <typeName> variable …`
 * (a BadUserRequestException in a PUT a 400), a denial as a 403.
 */
export function variableRoutes(router: Router, rest: RestContext, path: string, typeName: string, access: VariableScopeAccess): void {
  router.get(path, async (ctx) => {
    ctx.body = variablesToDto(await access.all(ctx.params.id!), jaxRsFlag(ctx.query, 'deserializeValues', true));
  });

  router.post(path, async (ctx) => {
    const id = ctx.params.id!;
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // PatchVariablesDto binds first (deletions a List<String>), then the modifications convert.
    const deletions = (idList(body.deletions) ?? []).filter((name): name is string => name !== null);
    const modifications = variablesFromDto(body.modifications, `Cannot modify variables for ${typeName}`);
    await asRestException(`Cannot modify variables for ${typeName} ${id}`, () => access.update(id, modifications, deletions, 'ModifyVariable'));
    ctx.status = 204;
  });

  const variable = async (id: string, name: string) =>
    namedVariable(await asRestException(`Cannot get ${typeName} variable ${name}`, () => access.all(id)), name, typeName);

  router.get(`${path}/:varName`, async (ctx) => {
    const value = await variable(ctx.params.id!, ctx.params.varName!);
    ctx.body = toVariableValueDto(value, { deserializeValues: jaxRsFlag(ctx.query, 'deserializeValue', true) });
  });

  router.get(`${path}/:varName/data`, async (ctx) => {
    writeBinaryVariable(ctx, await variable(ctx.params.id!, ctx.params.varName!), ctx.params.id!);
  });

  router.post(`${path}/:varName/data`, async (ctx) => {
    const { id, varName } = ctx.params as { id: string; varName: string };
    const value = await readBinaryVariable(ctx, rest.bodyLimit);
    await asRestException(`Cannot put ${typeName} variable ${varName}`, () => access.update(id, { [varName]: value }, [], 'SetVariable'));
    ctx.status = 204;
  });

  router.put(`${path}/:varName`, async (ctx) => {
    const { id, varName } = ctx.params as { id: string; varName: string };
    const value = putValue(typeName, varName, await readJsonObject(ctx, rest.bodyLimit));
    await asRestException(`Cannot put ${typeName} variable ${varName}`, () => access.update(id, { [varName]: value }, [], 'SetVariable'), (error) => error instanceof BadUserRequestException);
    ctx.status = 204;
  });

  router.delete(`${path}/:varName`, async (ctx) => {
    const { id, varName } = ctx.params as { id: string; varName: string };
    await asRestException(`Cannot delete ${typeName} variable ${varName}`, () => access.remove(id, [varName]));
    ctx.status = 204;
  });
}

/** The body of PUT …/{varName}: a conversion Camunda refuses is a 400, a value type's own failure a 500. */
function putValue(typeName: string, name: string, dto: Record<string, unknown>): TypedValue {
  try {
    return fromVariableValueDto(name, dto);
  } catch (error) {
    if (error instanceof IllegalArgumentException || error instanceof InvalidRequestException) throw error;
    const status = error instanceof VariableValueError ? error.status : 500;
    throw new InvalidRequestException(status, `Cannot put ${typeName} variable ${name}: ${(error as Error).message}`, status === 400 ? 'InvalidRequestException' : 'RestException');
  }
}
