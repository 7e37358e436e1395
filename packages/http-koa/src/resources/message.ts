import Router from '@koa/router';
import { MismatchingMessageCorrelationException, NotFoundException, type MessageCorrelationResult } from '@trellis/core';
import { objectOf, readJsonObject, text, flag } from '../body.js';
import { toProcessInstanceDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { type RestContext } from './context.js';

/** POST /message (correlation), POST /signal (broadcast) and POST /condition (conditional start events). */
export function messageRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.post('/message', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const messageName = text(body.messageName);
    if (messageName === null) throw new InvalidRequestException(400, 'No message name supplied');
    const tenantId = text(body.tenantId);
    if (tenantId !== null && flag(body.withoutTenantId)) {
      throw new InvalidRequestException(400, "Parameter 'tenantId' cannot be used together with parameter 'withoutTenantId'.");
    }
    const resultEnabled = flag(body.resultEnabled);
    const variablesInResultEnabled = flag(body.variablesInResultEnabled);
    if (!resultEnabled && variablesInResultEnabled) {
      throw new InvalidRequestException(400, "Parameter 'variablesInResultEnabled' cannot be used without 'resultEnabled' set to true.");
    }
    // Camunda's MessageRestServiceImpl: a variable it cannot convert is "Cannot deliver message: …".
    const prefix = 'Cannot deliver message';
    const correlation = {
      messageName,
      businessKey: text(body.businessKey),
      processInstanceId: text(body.processInstanceId),
      tenantId,
      withoutTenantId: flag(body.withoutTenantId),
      correlationKeys: variablesFromDto(body.correlationKeys, prefix),
      localCorrelationKeys: variablesFromDto(body.localCorrelationKeys, prefix),
      processVariables: variablesFromDto(body.processVariables, prefix),
      processVariablesLocal: variablesFromDto(body.processVariablesLocal, prefix),
      processVariablesToTriggeredScope: variablesFromDto(body.processVariablesToTriggeredScope, prefix),
      all: flag(body.all),
    };
    // Camunda's MessageRestServiceImpl hands the keys to the builder as Java values: an Object value,
    // read serialized, has none (ObjectValueImpl.getValue), a 500 no resource catches.
    for (const keys of [correlation.correlationKeys, correlation.localCorrelationKeys]) {
      if (Object.values(keys).some((value) => value.type === 'object')) throw new IllegalStateException('Object is not deserialized.');
    }
    let results: MessageCorrelationResult[];
    try {
      results = await engine.message.correlate(correlation);
    } catch (error) {
      // new RestException(BAD_REQUEST, cause): Java's message of a wrapped cause is the cause's toString().
      if (error instanceof MismatchingMessageCorrelationException) {
        throw new InvalidRequestException(400, `org.camunda.bpm.engine.MismatchingMessageCorrelationException: ${error.message}`, 'RestException', error.code);
      }
      throw error;
    }
    if (!resultEnabled) {
      ctx.status = 204;
      return;
    }
    ctx.body = results.map((result) => toResultDto(result, variablesInResultEnabled));
  });

  // Camunda's ConditionRestServiceImpl.evaluateCondition: the instances started, as ProcessInstanceDtos.
  router.post('/condition', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const tenantId = text(body.tenantId);
    if (tenantId !== null && flag(body.withoutTenantId)) {
      throw new InvalidRequestException(400, "Parameter 'tenantId' cannot be used together with parameter 'withoutTenantId'.");
    }
    const started = await engine.runtime.evaluateStartConditions({
      variables: variablesFromDto(body.variables),
      businessKey: text(body.businessKey),
      processDefinitionId: text(body.processDefinitionId),
      tenantId,
      withoutTenantId: flag(body.withoutTenantId),
    });
    ctx.body = started.map((instance) => toProcessInstanceDto(instance));
  });

  router.post('/signal', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const name = text(body.name);
    if (name === null) throw new InvalidRequestException(400, 'No signal name given');
    // Camunda's SignalRestServiceImpl has no check of tenantId with withoutTenantId (the tenant id wins).
    const tenantId = text(body.tenantId);
    // Camunda's SignalRestServiceImpl keeps an older 500 for its NotFoundException.
    await signalled(() => engine.message.signal({
      name,
      executionId: text(body.executionId),
      tenantId,
      withoutTenantId: tenantId === null && flag(body.withoutTenantId),
      variables: variablesFromDto(objectOf(body).variables),
    }));
    ctx.status = 204;
  });
}

function toResultDto(result: MessageCorrelationResult, withVariables: boolean) {
  return {
    resultType: result.resultType,
    execution: result.execution,
    processInstance: result.processInstance && { links: [], ...result.processInstance, caseInstanceId: null },
    // Camunda correlates without deserializing and answers the serialized values.
    ...(withVariables ? { variables: variablesToDto(result.variables, false) } : {}),
  };
}

/** Java's IllegalStateException, answered as a 500 of that type. */
class IllegalStateException extends Error {
  override readonly name = 'IllegalStateException';
}

async function signalled(call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(500, error.message, 'RestException', error.code);
    throw error;
  }
}
