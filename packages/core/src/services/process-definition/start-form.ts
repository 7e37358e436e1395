import type { FlowElementModel } from '../../bpmn/model/flow-element.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { evaluateOf } from '../../runtime/expressions/conditions.js';
import type { ExpressionContext } from '../../runtime/expressions/index.js';
import { untypedValue, type TypedValue } from '../../runtime/variables/index.js';
import { variablesOver, type FormScope } from './form-scope.js';
import { formPropertiesOf, submitFormProperties, type FormPropertyDefinition } from './form-properties.js';

/** A submitted value fails a form field's validation constraint (Camunda's FormFieldValidatorException). */
export class FormFieldValidationException extends ProcessEngineException {
  override readonly name: string = 'FormFieldValidationException';
}

/** A camunda:formRef of a start event or user task (Camunda Forms). */
export interface CamundaFormRef {
  key: string;
  binding: string;
  version: number | null;
}

/** One camunda:formField of a camunda:formData, as written: label and default value are expression texts. */
export interface FormFieldDefinition {
  id: string;
  label: string | null;
  /** The form type name: string, long, boolean, date, enum (unknown types behave as string). */
  typeName: string;
  /** For date fields: the Java date pattern (default dd/MM/yyyy). */
  datePattern: string | null;
  defaultValue: string | null;
  /** For enum fields: the values in document order. */
  values: ReadonlyArray<{ id: string; name: string | null }>;
  constraints: ReadonlyArray<{ name: string; config: string | null }>;
  /** The field formData names as businessKey. */
  isBusinessKey: boolean;
}

/** What a start event declares about its form (Camunda's StartFormData). */
export interface StartFormData {
  formKey: string | null;
  camundaFormRef: CamundaFormRef | null;
  fields: FormFieldDefinition[];
  /** The legacy camunda:formProperty elements. */
  properties: FormPropertyDefinition[];
}

/** What converting and rendering read of a field, as written or as read alike. */
type FieldShape = Omit<FormFieldDefinition, 'defaultValue'>;

/** A form field as read (Camunda's FormField): its label and default value evaluated in the form's scope. */
export interface FormField extends FieldShape {
  defaultValue: unknown;
}

export const DEFAULT_DATE_PATTERN = 'dd/MM/yyyy';

/**
 * Camunda's FormFieldHandler.createFormField: label and default value evaluated against the form's
 * scope (a task's execution; for a start form, one without variables). A label evaluating to null is none.
 */
export function evaluateFormFields(fields: readonly FormFieldDefinition[], scope: ExpressionContext): FormField[] {
  return fields.map((field) => {
    const label = field.label === null ? null : evaluateOf(field.label, scope);
    const defaultValue = field.defaultValue === null ? null : evaluateOf(field.defaultValue, scope);
    return { ...field, label: label === null || label === undefined ? null : String(label), defaultValue: defaultValue ?? null };
  });
}

/**
 * The camunda:formRef attributes of a start event or user task as written (Camunda's
 * BpmnParse.parseFormDefinition, which refuses a reference without a valid binding): an empty key
 * or version is one (a version counts with binding `version` only).
 */
export function formRefAttributesOf(element: FlowElementModel): { key: string; binding: string; version: string | null } | null {
  const key = writtenAttribute(element, 'formRef');
  if (key === null) return null;
  const binding = writtenAttribute(element, 'formRefBinding') ?? 'latest';
  return { key, binding, version: binding === 'version' ? writtenAttribute(element, 'formRefVersion') : null };
}

function writtenAttribute(element: FlowElementModel, name: string): string | null {
  const value = element.camunda[name];
  return value === undefined || value === null ? null : String(value);
}

/**
 * What a start event declares about its form (none when there is no start event), as Camunda's
 * DefaultStartFormHandler.createStartFormData reads it: a camunda:formRefVersion (binding `version`)
 * as Java's Integer.parseInt, failing there (when the form is read, not when it is submitted).
 */
export function startFormDataOf(start: FlowElementModel | null | undefined): StartFormData {
  if (!start) return { formKey: null, camundaFormRef: null, fields: [], properties: [] };
  const ref = formRefAttributesOf(start);
  return {
    // An empty form key is none.
    formKey: writtenAttribute(start, 'formKey') || null,
    camundaFormRef: ref === null ? null : { ...ref, version: ref.version === null ? null : javaInteger(ref.version) },
    ...formDeclarationsOf(start),
  };
}

/** The camunda:formData fields and camunda:formProperty elements of a start event or user task (what a submit applies). */
export function formDeclarationsOf(element: FlowElementModel | null | undefined): Pick<StartFormData, 'fields' | 'properties'> {
  return element ? { fields: formFieldsOf(element.extensions), properties: formPropertiesOf(element.extensions) } : { fields: [], properties: [] };
}

/**
 * Java's Integer.parseInt, as Camunda reads a camunda:formRefVersion. It fails with Java's
 * NumberFormatException, not an engine exception (the REST API answers 500 with that type).
 */
export function javaInteger(text: string): number {
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isInteger(value) && value <= 2147483647 && value >= -2147483648) return value;
  throw Object.assign(new Error(`For input string: "${text}"`), { name: 'NumberFormatException' });
}

function formFieldsOf(extensions: readonly unknown[]): FormFieldDefinition[] {
  const fields: FormFieldDefinition[] = [];
  for (const extension of extensions as Array<Record<string, unknown>>) {
    if (extension?.$type !== 'camunda:FormData') continue;
    const businessKey = typeof extension.businessKey === 'string' ? extension.businessKey : null;
    for (const field of (extension.fields ?? []) as Array<Record<string, unknown>>) {
      const validation = field.validation as { constraints?: Array<Record<string, unknown>> } | undefined;
      const id = String(field.id ?? '');
      fields.push({
        id,
        label: typeof field.label === 'string' ? field.label : null,
        typeName: typeof field.type === 'string' && field.type !== '' ? field.type : 'string',
        datePattern: typeof field.datePattern === 'string' ? field.datePattern : null,
        defaultValue: typeof field.defaultValue === 'string' ? field.defaultValue : null,
        values: ((field.values ?? []) as Array<Record<string, unknown>>).map((value) => ({
          id: String(value.id ?? ''),
          name: typeof value.name === 'string' ? value.name : null,
        })),
        constraints: (validation?.constraints ?? []).map((constraint) => ({
          name: String(constraint.name ?? ''),
          config: typeof constraint.config === 'string' ? constraint.config : null,
        })),
        isBusinessKey: businessKey !== null && businessKey === id,
      });
    }
  }
  return fields;
}

const datePatternOf = (field: FieldShape) => field.datePattern ?? DEFAULT_DATE_PATTERN;

/**
 * A variable's value as the field's form value (Camunda's FormFieldHandler.handleFormField with
 * FormType.convertToFormValue: a date as its text in the field's pattern, other types as their model
 * value); a value the type cannot take is Camunda's FormFieldValidationException "failed to convert".
 */
export function formValueFrom(field: FieldShape, value: TypedValue): TypedValue {
  try {
    if (field.typeName !== 'date') return toModelValue(field, value);
    const transient = value.transient ? { transient: true } : {};
    if (value.value === null || value.value === undefined) return { type: 'string', value: '', valueInfo: {}, ...transient };
    if (value.type !== 'date') throw new ProcessEngineException(`Expected value to be of type 'date' but got '${value.type}'.`);
    return { type: 'string', value: formatJavaDate(value.value as Date, datePatternOf(field)), valueInfo: {}, ...transient };
  } catch (error) {
    if (!ProcessEngineException.is(error)) throw error;
    throw new FormFieldValidationException(`failed to convert '${field.id}'`);
  }
}

/**
 * A field's evaluated default value as its form value (Camunda's createFormField: the type's model
 * value, then its form value; a date as its text, no date the empty text); value null without default.
 */
export function formValueOf(field: FormField): TypedValue {
  return formValueFrom(field, toModelValue(field, untypedValue(field.defaultValue)));
}

/**
 * Applies a form to submitted variables (Camunda's DefaultFormHandler.submitFormVariables): first
 * the legacy form properties (see submitFormProperties), then each field's submitted value is
 * validated, then converted to the field's model type or defaulted; variables no property or field
 * handles are passed through. `scope`: what the form's scope already holds (a
 * task's visible variables), which satisfies `required`, and where default values are evaluated,
 * each seeing the fields handled before it. A failed constraint is Camunda's
 * FormFieldValidatorException, an engine error (REST: 500), as are a value the type cannot convert
 * and a constraint configured wrongly.
 */
export function submitFormVariables(
  { fields, properties }: Pick<StartFormData, 'fields' | 'properties'>,
  submitted: Record<string, TypedValue>,
  scope: FormScope,
): Record<string, TypedValue> {
  const rest: Record<string, TypedValue> = { ...submitted };
  const result = submitFormProperties(properties, rest, scope);
  for (const field of fields) {
    if (field.isBusinessKey) continue;
    const value = Object.prototype.hasOwnProperty.call(rest, field.id) ? rest[field.id] : undefined;
    delete rest[field.id];
    const defaultOf = () => (field.defaultValue === null ? null : evaluateOf(field.defaultValue, variablesOver(result, scope.expressions)));
    for (const constraint of field.constraints) validateConstraint(field, constraint, value, { variable: (name) => result[name] ?? scope.variable(name), defaultOf });
    let model: TypedValue | null = null;
    if (value !== undefined) model = toModelValue(field, value);
    else if (field.defaultValue !== null) model = toModelValue(field, untypedValue(defaultOf()));
    if (model !== null) result[field.id] = model;
  }
  return { ...result, ...rest };
}

/** Camunda's FormFieldValidatorException: a constraint the submitted value fails. */
export class FormFieldValidatorException extends ProcessEngineException {
  override readonly name: string = 'FormFieldValidatorException';
}

/** The Java class Camunda's REST layer gives a submitted value, for the numeric validators and messages. */
const JAVA_NUMBERS: Partial<Record<TypedValue['type'], string>> = { integer: 'Integer', long: 'Long', double: 'Double', short: 'Short' };
const JAVA_CLASSES: Partial<Record<TypedValue['type'], string>> = { ...JAVA_NUMBERS, boolean: 'Boolean', date: 'Date', bytes: '[B' };
const javaClassOf = (value: TypedValue) => {
  const name = JAVA_CLASSES[value.type] ?? 'Object';
  return name === '[B' ? 'class [B' : `class java.${name === 'Date' ? 'util' : 'lang'}.${name}`;
};

/** Camunda's built-in validators (FormFieldValidationConstraintHandler with RequiredValidator, MinValidator, …). */
function validateConstraint(
  field: FormFieldDefinition,
  constraint: { name: string; config: string | null },
  submitted: TypedValue | undefined,
  scope: { variable(name: string): TypedValue | undefined; defaultOf(): unknown },
): void {
  const value = (submitted?.value ?? null) as unknown;
  const fail = () => {
    const described = constraint.config !== null ? `${constraint.name}(${constraint.config})` : constraint.name;
    throw new FormFieldValidatorException(`Invalid value submitted for form field '${field.id}': validation of ${described} failed.`);
  };
  const config = constraint.config ?? 'null';
  switch (constraint.name) {
    case 'required':
      // Nothing submitted: a value the scope holds, or the field's default, will do.
      if (value === null) {
        const held = scope.variable(field.id);
        if (held !== undefined ? held.value === null : (scope.defaultOf() ?? null) === null) fail();
      } else if (value === '') fail();
      return;
    case 'readonly':
      if (value !== null) fail();
      return;
    case 'minlength':
    case 'maxlength': {
      if (value === null) return;
      const validator = constraint.name === 'minlength' ? 'MinLengthValidator' : 'MaxLengthValidator';
      if (typeof value !== 'string') throw new ProcessEngineException(`String validator ${validator} cannot be used on non-string value of type ${javaClassOf(submitted!)}`);
      if (!/^[+-]?\d+$/.test(config)) throw new ProcessEngineException(`Cannot validate "${constraint.name}": configuration ${config} cannot be interpreted as Integer`);
      const limit = Number(config);
      if (constraint.name === 'minlength' ? value.length < limit : value.length > limit) fail();
      return;
    }
    case 'min':
    case 'max': {
      if (value === null) return;
      // Only numbers are checked (Camunda's AbstractNumericValidator), against the config read as their Java type.
      const javaType = JAVA_NUMBERS[submitted!.type];
      if (javaType === undefined || typeof value !== 'number') fail();
      const integral = javaType !== 'Double';
      if (integral ? !/^[+-]?\d+$/.test(config) : Number.isNaN(Number(config)) || config.trim() === '') {
        throw new ProcessEngineException(`Cannot validate ${javaType} value ${String(value)}: configuration ${config} cannot be parsed as ${javaType}.`);
      }
      const limit = Number(config);
      // MinValidator: at least the limit; MaxValidator: strictly below it.
      if (constraint.name === 'min' ? (value as number) < limit : (value as number) >= limit) fail();
      return;
    }
    default:
      // Custom validators (camunda:validator classes, expressions) are not supported: they always pass.
      return;
  }
}

function toModelValue(field: FieldShape, submitted: TypedValue): TypedValue {
  const value = submitted.value as unknown;
  const transient = submitted.transient ? { transient: true } : {};
  switch (field.typeName) {
    case 'long': {
      if (submitted.type === 'long') return submitted;
      if (value === null || value === undefined) return { type: 'long', value: null, valueInfo: {}, ...transient };
      if (typeof value === 'number' || typeof value === 'string') return { type: 'long', value: toLong(String(value)), valueInfo: {}, ...transient };
      throw new ProcessEngineException(`Value '${String(value)}' is not of type Long.`);
    }
    case 'boolean': {
      if (submitted.type === 'boolean') return submitted;
      if (value === null || value === undefined) return { type: 'boolean', value: null, valueInfo: {}, ...transient };
      if (typeof value === 'boolean' || typeof value === 'string') return { type: 'boolean', value: String(value).toLowerCase() === 'true', valueInfo: {}, ...transient };
      throw new ProcessEngineException(`Value '${String(value)}' is not of type Boolean.`);
    }
    case 'date': {
      if (submitted.type === 'date') return submitted;
      if (value === null || value === undefined) return { type: 'date', value: null, valueInfo: {}, ...transient };
      // Camunda's DateFormType: the text trimmed, empty text no date.
      if (typeof value === 'string') return { type: 'date', value: value.trim() === '' ? null : parseJavaDate(value.trim(), datePatternOf(field)), valueInfo: {}, ...transient };
      throw new ProcessEngineException(`Value '${String(value)}' cannot be transformed into a Date.`);
    }
    case 'enum': {
      if (value !== null && value !== undefined && !field.values.some((entry) => entry.id === String(value))) {
        throw new ProcessEngineException(`Invalid value for enum form property: ${String(value)}`);
      }
      return submitted.type === 'string' ? submitted : { type: 'string', value: value === null || value === undefined ? null : String(value), valueInfo: {}, ...transient };
    }
    default: {
      if (submitted.type === 'string') return submitted;
      return { type: 'string', value: value === null || value === undefined ? null : String(value), valueInfo: {}, ...transient };
    }
  }
}

function toLong(text: string): number {
  if (!/^[+-]?\d+$/.test(text.trim())) throw new ProcessEngineException(`Value '${text}' is not of type Long.`);
  return Number(text.trim());
}

// --- Java SimpleDateFormat, the numeric subset (yyyy, yy, MM, dd, HH, hh, mm, ss, SSS, a) in local time ---

const DATE_TOKEN = /(y+|M+|d+|H+|h+|m+|s+|S+|a|'[^']*')/g;

export function formatJavaDate(date: Date, pattern: string): string {
  return pattern.replace(DATE_TOKEN, (token) => {
    const pad = (n: number) => String(n).padStart(token.length, '0');
    switch (token[0]) {
      case 'y': return token.length === 2 ? String(date.getFullYear() % 100).padStart(2, '0') : pad(date.getFullYear());
      case 'M': return pad(date.getMonth() + 1);
      case 'd': return pad(date.getDate());
      case 'H': return pad(date.getHours());
      case 'h': return pad(date.getHours() % 12 === 0 ? 12 : date.getHours() % 12);
      case 'm': return pad(date.getMinutes());
      case 's': return pad(date.getSeconds());
      case 'S': return String(date.getMilliseconds()).padStart(3, '0');
      case 'a': return date.getHours() < 12 ? 'AM' : 'PM';
      default: return token.slice(1, -1);
    }
  });
}

export function parseJavaDate(text: string, pattern: string): Date {
  const parts: Record<string, number> = {};
  let regex = '';
  const order: string[] = [];
  let last = 0;
  for (const match of pattern.matchAll(DATE_TOKEN)) {
    regex += escapeRegex(pattern.slice(last, match.index));
    const token = match[0];
    if (token.startsWith("'")) regex += escapeRegex(token.slice(1, -1));
    else if (token === 'a') {
      regex += '(AM|PM|am|pm)';
      order.push('a');
    } else {
      regex += '(\\d+)';
      order.push(token[0]!);
    }
    last = match.index + token.length;
  }
  regex += escapeRegex(pattern.slice(last));
  const match = new RegExp(`^${regex}`).exec(text);
  if (!match) throw new ProcessEngineException(`Could not parse value '${text}' as date using date format '${pattern}'.`);
  let pm: boolean | null = null;
  order.forEach((key, i) => {
    const raw = match[i + 1]!;
    if (key === 'a') pm = raw.toUpperCase() === 'PM';
    else parts[key] = Number(raw);
  });
  let hours = parts.H ?? parts.h ?? 0;
  if (parts.h !== undefined && pm !== null) hours = (hours % 12) + (pm ? 12 : 0);
  return new Date(parts.y ?? 1970, (parts.M ?? 1) - 1, parts.d ?? 1, hours, parts.m ?? 0, parts.s ?? 0, parts.S ?? 0);
}

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// --- Camunda's HtmlFormEngine: the generated form for camunda:formData fields ---

interface HtmlElement {
  tag: string;
  selfClosing: boolean;
  attributes: Array<[string, string | null]>;
  text: string | null;
}

class HtmlDocument {
  private readonly out: string[] = [];
  private readonly stack: HtmlElement[] = [];

  start(tag: string, attributes: Array<[string, string | null]>, options: { selfClosing?: boolean; text?: string } = {}): this {
    const element = { tag, selfClosing: options.selfClosing ?? false, attributes, text: options.text ?? null };
    const rendered = attributes.map(([name, value]) => (value === null ? ` ${name}` : ` ${name}="${value.replace(/"/g, '&quot;')}"`)).join('');
    this.out.push(`${this.indent()}<${tag}${rendered}${element.selfClosing ? ' />' : '>'}\n`);
    this.stack.push(element);
    return this;
  }

  end(): this {
    const element = this.stack.pop()!;
    if (element.text !== null) this.out.push(`${this.indent()}  ${element.text}\n`);
    if (!element.selfClosing) this.out.push(`${this.indent()}</${element.tag}>\n`);
    return this;
  }

  element(tag: string, attributes: Array<[string, string | null]>, options: { selfClosing?: boolean; text?: string } = {}): this {
    return this.start(tag, attributes, options).end();
  }

  toString(): string {
    return this.out.join('');
  }

  private indent(): string {
    return '  '.repeat(this.stack.length);
  }
}

const FORM = 'this.generatedForm';

/** The generated HTML form of camunda:formData fields (a start or a task form), or null when there are none. */
export function renderFormFields(fields: readonly FormField[]): string | null {
  if (fields.length === 0) return null;
  const doc = new HtmlDocument().start('form', [['name', 'generatedForm'], ['role', 'form']]);
  for (const field of fields) {
    doc.start('div', [['class', 'form-group']]);
    if (field.label !== null && field.label !== '') doc.element('label', [['for', field.id]], { text: field.label });
    if (field.typeName === 'enum') {
      doc.start('select', commonAttributes(field));
      for (const value of field.values) doc.element('option', [['value', value.id]], { text: value.name ?? undefined });
      doc.end();
    } else if (field.typeName === 'date') {
      renderDatePicker(doc, field);
    } else {
      const attributes = commonAttributes(field);
      attributes.push(['type', field.typeName === 'boolean' ? 'checkbox' : 'text']);
      const defaultValue = field.defaultValue === null ? null : String(formValueOf(field).value);
      if (defaultValue !== null) attributes.push(['value', defaultValue]);
      doc.element('input', attributes, { selfClosing: true });
    }
    renderInvalidMessages(doc, field);
    doc.end();
  }
  return doc.end().toString();
}

const isReadOnly = (field: FieldShape) => field.constraints.some((constraint) => constraint.name === 'readonly');

function commonAttributes(field: FieldShape): Array<[string, string | null]> {
  const typeName = field.typeName === 'enum' || field.typeName === 'date' ? 'string' : field.typeName;
  const attributes: Array<[string, string | null]> = [['class', 'form-control'], ['name', field.id]];
  if (field.isBusinessKey) attributes.push(['cam-business-key', null]);
  else attributes.push(['cam-variable-type', typeName.charAt(0).toUpperCase() + typeName.slice(1)], ['cam-variable-name', field.id]);
  for (const constraint of field.constraints) attributes.push([constraint.name === 'readonly' ? 'disabled' : constraint.name, constraint.config]);
  return attributes;
}

function renderDatePicker(doc: HtmlDocument, field: FieldShape): void {
  doc.start('div', [['class', 'input-group']]);
  const input = commonAttributes(field);
  input.push(['type', 'text'], ['uib-datepicker-popup', datePatternOf(field)], ['is-open', `dateFieldOpened${field.id}`]);
  doc.element('input', input, { selfClosing: true });
  if (!isReadOnly(field)) {
    doc.start('div', [['class', 'input-group-btn']]);
    doc.start('button', [['type', 'button'], ['class', 'btn btn-default'], ['ng-click', `open${field.id}($event)`]]);
    doc.element('i', [['class', 'glyphicon glyphicon-calendar']]);
    doc.end().end();
    doc.element('script', [['cam-script', null], ['type', 'text/form-script']], {
      text: `$scope.open${field.id} = function ($event) { $event.preventDefault(); $event.stopPropagation(); $scope.dateFieldOpened${field.id} = true; };`,
    });
  }
  doc.end();
}

function renderInvalidMessages(doc: HtmlDocument, field: FieldShape): void {
  const id = field.id;
  doc.start('div', [['ng-if', `${FORM}.${id}.$invalid && ${FORM}.${id}.$dirty`], ['class', 'has-error']]);
  if (field.typeName !== 'date') {
    doc.element('div', [['ng-show', `${FORM}.${id}.$error.required`], ['class', 'help-block']], { text: 'Required field' });
    const typeName = field.typeName === 'enum' ? 'string' : field.typeName;
    doc.element('div', [['ng-show', `${FORM}.${id}.$error.camVariableType`], ['class', 'help-block']], { text: `Only a ${typeName} value is allowed` });
  } else {
    doc.element('div', [['ng-show', `${FORM}.${id}.$error.required && !${FORM}.${id}.$error.date`], ['class', 'help-block']], { text: 'Required field' });
    doc.element('div', [['ng-show', `${FORM}.${id}.$error.date`], ['class', 'help-block']], {
      text: `Invalid date format: the date should have the pattern '${datePatternOf(field)}'`,
    });
  }
  doc.end();
}
