import type { VariableComparisonOperator, VariableValueCondition } from '@trellis/core';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { converterError, jacksonDate, jacksonNullText, javaSplit } from './parse-query.js';

/** The comparisons most of Camunda's query DTOs take for a variable criterion (no `notLike`). */
export const COMPARISONS: readonly VariableComparisonOperator[] = ['eq', 'neq', 'gt', 'gteq', 'lt', 'lteq', 'like'];

/**
 * The operators one query DTO takes for one variable criterion, and what its error calls the
 * criterion: Camunda's `Invalid <kind> comparator specified: <operator>` (400).
 */
export interface VariableCriterionRule {
  kind: string;
  operators: readonly VariableComparisonOperator[];
}

export const variableRule = (kind = 'variable', operators: readonly VariableComparisonOperator[] = COMPARISONS): VariableCriterionRule => ({ kind, operators });

/**
 * The variable criteria of a query (`variables`, `processVariables`, …), by the rule of each:
 * `name_op_value` lists in a query string, lists of `{name, operator, value}` in a body; absent ones
 * are left out. A `like` or `notLike` value is compared as text (Camunda's String.valueOf).
 */
export function variableCriteria<K extends string>(source: Record<string, unknown>, rules: Readonly<Record<K, VariableCriterionRule>>, from: 'queryString' | 'body'): Partial<Record<K, VariableValueCondition[]>> {
  const criteria: Partial<Record<K, VariableValueCondition[]>> = {};
  for (const name of Object.keys(rules) as K[]) {
    const raw = from === 'queryString' && Array.isArray(source[name]) ? (source[name] as unknown[])[0] : source[name];
    if (from === 'queryString' && typeof raw === 'string') criteria[name] = parseVariableValuesParam(name, raw, rules[name]);
    if (from === 'body' && raw !== undefined && raw !== null) criteria[name] = parseVariableValuesBody(raw, rules[name], name);
  }
  return criteria;
}

const compareAsText = (operator: VariableComparisonOperator) => operator === 'like' || operator === 'notLike';

/**
 * `name_op_value` conditions, comma-separated; values are strings (or dates in Camunda's format), as
 * in Camunda's GET queries. Split as Java splits (`a_eq_` is two pieces): anything but three pieces,
 * an empty parameter too, is Camunda's VariableListConverter error.
 */
function parseVariableValuesParam(param: string, raw: string, rule: VariableCriterionRule): VariableValueCondition[] {
  const conditions = javaSplit(raw, ',').map((expression) => {
    const parts = javaSplit(expression, '_');
    if (parts.length !== 3) throw converterError(param, raw, 'variable query parameter has to have format KEY_OPERATOR_VALUE.');
    return parts as [string, string, string];
  });
  return conditions.map(([name, given, value]) => {
    const operator = checkOperator(given, rule);
    return { name, operator, value: resolveValue(value, operator) };
  });
}

/**
 * Camunda's ConditionQueryParameterDto.resolveValue: text is first read as a Jackson Date — which
 * gives a date, or null for blank text and "null" — else kept; like conditions take the result as
 * text (String.valueOf: null is "null").
 */
function resolveValue(value: string, operator: VariableComparisonOperator): string | Date | null {
  const resolved = jacksonNullText(value) ? null : (jacksonDate(value) ?? value);
  if (compareAsText(operator)) return resolved === null ? 'null' : value;
  return resolved;
}

/** `[{name, operator, value}]`: a value may be a string (or date string), number, boolean or null. */
function parseVariableValuesBody(raw: unknown, rule: VariableCriterionRule, param: string): VariableValueCondition[] {
  if (!Array.isArray(raw)) throw new InvalidRequestException(400, `Cannot set query parameter '${param}' to value '${JSON.stringify(raw)}'`);
  const entries = raw.map((entry: { name?: unknown; operator?: unknown; value?: unknown }) => {
    const value = entry?.value ?? null;
    if (typeof entry?.name !== 'string' || !['string', 'number', 'boolean'].includes(typeof value) && value !== null) {
      throw new InvalidRequestException(400, `Cannot set query parameter '${param}' to value '${JSON.stringify(entry)}'`);
    }
    return { name: entry.name, operator: String(entry.operator), value: value as string | number | boolean | null };
  });
  return entries.map(({ name, operator: given, value }) => {
    const operator = checkOperator(given, rule);
    if (typeof value === 'string') return { name, operator, value: resolveValue(value, operator) };
    return { name, operator, value: compareAsText(operator) ? String(value) : value };
  });
}

function checkOperator(operator: string, rule: VariableCriterionRule): VariableComparisonOperator {
  if (!rule.operators.includes(operator as VariableComparisonOperator)) throw new InvalidRequestException(400, `Invalid ${rule.kind} comparator specified: ${operator}`);
  return operator as VariableComparisonOperator;
}
