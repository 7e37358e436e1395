import type { TypedValue } from '@trellis/core';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { fromVariableValueDto, IllegalArgumentException, toVariableValueDto, VariableValueError } from './variable-dto.js';

/** A REST `variables` map → typed values; a bad entry is a 400 with `<prefix>: <Camunda's message>`. */
export function variablesFromDto(map: unknown, prefix = ''): Record<string, TypedValue> {
  if (map === undefined || map === null) return {};
  if (typeof map !== 'object' || Array.isArray(map)) throw new InvalidRequestException(400, '');
  const result: Record<string, TypedValue> = {};
  for (const [name, dto] of Object.entries(map as Record<string, unknown>)) {
    try {
      result[name] = fromVariableValueDto(name, (dto ?? {}) as Record<string, unknown>);
    } catch (error) {
      if (error instanceof IllegalArgumentException || error instanceof InvalidRequestException) throw error;
      // Camunda answers a conversion it refuses with 400, a value type's own failure with 500.
      const status = error instanceof VariableValueError ? error.status : 500;
      throw new InvalidRequestException(status, prefix ? `${prefix}: ${(error as Error).message}` : (error as Error).message, status === 400 ? 'InvalidRequestException' : 'RestException');
    }
  }
  return result;
}

/** Typed values → the REST `variables` map. */
export function variablesToDto(variables: Record<string, TypedValue>, deserializeValues = true): Record<string, unknown> {
  return Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, toVariableValueDto(value, { deserializeValues })]));
}
