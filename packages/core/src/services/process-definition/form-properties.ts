import { ProcessEngineException } from '../../errors/exceptions.js';
import { evaluateOf } from '../../runtime/expressions/conditions.js';
import type { ExpressionContext } from '../../runtime/expressions/index.js';
import { toJavaScriptValue, type TypedValue } from '../../runtime/variables/index.js';
import { variablesOver, type FormScope } from './form-scope.js';
import { DEFAULT_DATE_PATTERN, formatJavaDate, parseJavaDate, type FormField } from './start-form.js';

/**
 * A legacy camunda:formProperty (Camunda's FormPropertyHandler), which Camunda still reads and
 * submits beside camunda:formData: the variable it stands for (`variable`, else a `${name}`
 * `expression`, else its id), a default expression, and whether it is shown, written or required.
 */
export interface FormPropertyDefinition {
  id: string;
  name: string | null;
  /** The form type name; null without one (values then pass unconverted). */
  typeName: string | null;
  datePattern: string | null;
  values: ReadonlyArray<{ id: string; name: string | null }>;
  required: boolean;
  readable: boolean;
  writable: boolean;
  variable: string | null;
  expression: string | null;
  defaultExpression: string | null;
}

/** The camunda:formProperty elements of a start event or user task, in document order. */
export function formPropertiesOf(extensions: readonly unknown[]): FormPropertyDefinition[] {
  return (extensions as Array<Record<string, unknown>>)
    .filter((extension) => extension?.$type === 'camunda:FormProperty')
    .map((property) => {
      const text = (name: string) => (typeof property[name] === 'string' ? (property[name] as string) : null);
      return {
        id: text('id') ?? '',
        name: text('name'),
        typeName: text('type'),
        datePattern: text('datePattern'),
        values: ((property.values ?? []) as Array<Record<string, unknown>>).map((value) => ({ id: String(value.id ?? ''), name: typeof value.name === 'string' ? value.name : null })),
        required: flag(text('required'), false),
        readable: flag(text('readable'), true),
        writable: flag(text('writable'), true),
        variable: text('variable'),
        expression: text('expression'),
        defaultExpression: text('default'),
      };
    });
}

/** Camunda's BpmnParse.parseBooleanAttribute for the flags: on, yes, enabled and active are true too. */
const flag = (text: string | null, otherwise: boolean) =>
  text === null ? otherwise : ['true', 'on', 'yes', 'enabled', 'active'].includes(text) ? true : ['false', 'off', 'no', 'disabled', 'inactive'].includes(text) ? false : otherwise;

/** Where form properties are read: the execution's variables and expressions; for a start form (no instance) no variables. */
export interface FormPropertyReadScope {
  variables: Record<string, TypedValue> | null;
  expressions: ExpressionContext;
}

/**
 * The readable properties as fields of the generated form (Camunda's createFormProperty, shown
 * through its FormPropertyAdapter): the name as label, the form value as default, `required` and,
 * when not writable, `readonly` as constraints. A property without a type renders as text.
 */
export function readFormProperties(properties: readonly FormPropertyDefinition[], scope: FormPropertyReadScope): FormField[] {
  return properties
    .filter((property) => property.readable)
    .map((property) => ({
      id: property.id,
      label: property.name,
      typeName: property.typeName ?? 'string',
      datePattern: property.datePattern,
      defaultValue: formTextOf(property, modelValueOf(property, scope)),
      values: property.values,
      constraints: [...(property.required ? [{ name: 'required', config: null }] : []), ...(property.writable ? [] : [{ name: 'readonly', config: null }])],
      isBusinessKey: false,
    }));
}

/** The property's model value: its variable (or expression) on the execution, else its default; a start form's default only. */
function modelValueOf(property: FormPropertyDefinition, { variables, expressions }: FormPropertyReadScope): unknown {
  if (variables !== null && property.variable === null && property.expression !== null) return evaluateOf(property.expression, expressions);
  const held = variables?.[property.variable ?? property.id];
  if (held !== undefined) return toJavaScriptValue(held);
  return property.defaultExpression === null ? null : evaluateOf(property.defaultExpression, expressions);
}

/** Camunda's FormType.convertModelValueToFormValue: text stays text, a date in the pattern, anything else its text. */
function formTextOf(property: FormPropertyDefinition, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  switch (property.typeName) {
    case 'date':
      return formatJavaDate(value as Date, property.datePattern ?? DEFAULT_DATE_PATTERN);
    case 'boolean':
      if (typeof value !== 'boolean') throw new ProcessEngineException(`Model value is not of type boolean, but of type ${typeof value}`);
      return String(value);
    case 'enum':
      throw new ProcessEngineException('Model value should be a String');
    default:
      return String(value);
  }
}

/**
 * Camunda's FormPropertyHandler.submitFormProperty for each property, before any form field:
 * refuses a submitted value of a property not writable and a missing required one without
 * default; converts the submitted value (or the default evaluated in the scope) and answers it
 * under the property's variable. What a property takes is removed from `submitted`.
 */
export function submitFormProperties(properties: readonly FormPropertyDefinition[], submitted: Record<string, TypedValue>, scope: FormScope): Record<string, TypedValue> {
  const result: Record<string, TypedValue> = {};
  for (const property of properties) {
    const given = Object.hasOwn(submitted, property.id);
    if (!property.writable && given) throw new ProcessEngineException(`form property '${property.id}' is not writable`);
    if (property.required && !given && property.defaultExpression === null) throw new ProcessEngineException(`form property '${property.id}' is required`);
    let model: TypedValue | null = null;
    if (given) {
      model = toModelValue(property, submitted[property.id]!);
      delete submitted[property.id];
    } else if (property.defaultExpression !== null) {
      const value = evaluateOf(property.defaultExpression, variablesOver(result, scope.expressions));
      if (value === null || value === undefined) {
        if (property.required) throw new ProcessEngineException(`form property '${property.id}' is required`);
      } else {
        model = toModelValue(property, { type: 'string', value: String(value), valueInfo: {} });
      }
    }
    if (model !== null && model.value !== null) result[targetOf(property)] = model;
  }
  return result;
}

/** Camunda's FormType.convertFormValueToModelValue: the value's text read as the type (no text is no value); untyped values as given. */
function toModelValue(property: FormPropertyDefinition, submitted: TypedValue): TypedValue {
  const value = submitted.value as unknown;
  if (property.typeName === null) return submitted;
  if (value === null || value === undefined || (value === '' && property.typeName !== 'string' && property.typeName !== 'enum')) return { type: 'null', value: null, valueInfo: {} };
  const text = value instanceof Date ? value.toISOString() : String(value);
  switch (property.typeName) {
    case 'long':
      if (!/^[+-]?\d+$/.test(text)) throw new ProcessEngineException(`For input string: "${text}"`);
      return { type: 'long', value: Number(text), valueInfo: {} };
    case 'boolean':
      return { type: 'boolean', value: text.toLowerCase() === 'true', valueInfo: {} };
    case 'date':
      try {
        return { type: 'date', value: parseJavaDate(text, property.datePattern ?? DEFAULT_DATE_PATTERN), valueInfo: {} };
      } catch {
        throw new ProcessEngineException(`invalid date value ${text}`);
      }
    case 'enum':
      if (!property.values.some((entry) => entry.id === text)) throw new ProcessEngineException(`Invalid value for enum form property: ${text}`);
      return { type: 'string', value: text, valueInfo: {} };
    default:
      return { type: 'string', value: text, valueInfo: {} };
  }
}

const IDENTIFIER_EXPRESSION = /^[$#]\{\s*([A-Za-z_][\w]*)\s*\}$/;

/**
 * The variable a property writes: `variable`, else the one its `${name}` expression names, else
 * its id. An expression that is no single variable (Camunda sets a bean property through it) is refused.
 */
function targetOf(property: FormPropertyDefinition): string {
  if (property.variable !== null || property.expression === null) return property.variable ?? property.id;
  const match = IDENTIFIER_EXPRESSION.exec(property.expression);
  if (!match) throw new ProcessEngineException(`form property '${property.id}': cannot write a value through the expression ${property.expression}`);
  return match[1]!;
}
