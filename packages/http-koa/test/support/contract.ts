import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/** The committed 7.22 contract (scripts/derive-contract.mjs): paths, parameters and schemas, no prose. */
const contract = JSON.parse(
  readFileSync(new URL('../../contract/camunda-rest-7.22.json', import.meta.url), 'utf8'),
) as Contract;

interface Contract {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
type Schema = Record<string, any>;

// Camunda's REST date format, which is not RFC 3339: `2013-01-23T14:42:45.000+0200`.
const REST_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{4}$/;
// Real Camunda quirks a response may carry beyond its schema.
const QUIRK_PROPERTIES = new Set(['\u0435lementIds', '@class']);

// Camunda serializes `code: null` for REST-layer errors (no engine cause), which the document's
// ExceptionDto (`code: number`) does not allow; the real behaviour wins, so the check accepts null.
for (const name of ['ExceptionDto']) contract.components.schemas[name].properties.code.nullable = true;
// Camunda's AuthorizationExceptionDto still sends the deprecated single-permission fields (facts §1.3).
// Camunda's TaskDto and HistoricTaskInstanceDto send the task's state (Created, Updated, Completed, Deleted), which the document leaves out.
contract.components.schemas.HistoricTaskInstanceDto.properties.taskState = { type: 'string', nullable: true };
contract.components.schemas.TaskDto.properties.taskState = { type: 'string', nullable: true };
// Camunda's LockedExternalTaskDto (fetchAndLock) sends the task's create time and its extension properties ({} unless asked for).
contract.components.schemas.LockedExternalTaskDto.properties.createTime = { type: 'string', format: 'date-time', nullable: true };
contract.components.schemas.LockedExternalTaskDto.properties.extensionProperties = { type: 'object', nullable: true, additionalProperties: { type: 'string' } };
contract.components.schemas.AuthorizationExceptionDto.allOf[0].properties = {
  ...contract.components.schemas.AuthorizationExceptionDto.allOf[0].properties,
  resourceName: { type: 'string', nullable: true },
  resourceId: { type: 'string', nullable: true },
  permissionName: { type: 'string', nullable: true },
};

// HistoricDetailDto types `value` and `fieldValue` as objects, yet Camunda's HistoricVariableUpdateDto
// and HistoricFormFieldDto send any JSON value there (a String update's value is a string).
for (const name of ['value', 'fieldValue']) delete contract.components.schemas.HistoricDetailDto.properties[name].type;
// PasswordPolicyRuleDto.parameter is a plain object, yet the rule PASSWORD_POLICY_USER_DATA has no
// parameters and Camunda sends null (the document's own example of GET /identity/password-policy).
contract.components.schemas.PasswordPolicyRuleDto.properties.parameter.nullable = true;
// CheckPasswordPolicyResultDto reuses PasswordPolicyDto, whose rules lack `valid`; Camunda's
// CheckPasswordPolicyRuleDto has it (the document's own example of POST /identity/password-policy).
contract.components.schemas.CheckPasswordPolicyResultDto.allOf[1] = {
  type: 'object',
  properties: { rules: { type: 'array', nullable: true, items: { $ref: '#/components/schemas/CheckPasswordPolicyRuleDto' } } },
};
// OpenAPI 3.0 cannot mark an enum or a $ref property nullable, yet Camunda sends null for both
// (e.g. TaskDto.delegationState, TaskDto.camundaFormRef): null is accepted there.
allowNulls(contract);

const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addFormat('date-time', REST_DATE);
ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
for (const format of ['int32', 'int64', 'double', 'float', 'binary', 'byte']) ajv.addFormat(format, true);
ajv.addSchema({ ...contract, $id: 'contract' });
const compiled = new Map<string, ValidateFunction>();

/** The contract's path template for a concrete path: literal segments beat `{param}` ones. */
export function matchPathTemplate(path: string): string | undefined {
  const segments = stripEnginePrefix(path).split('/');
  let best: { template: string; literals: number } | undefined;
  for (const template of Object.keys(contract.paths)) {
    const parts = template.split('/');
    if (parts.length !== segments.length) continue;
    let literals = 0;
    const matches = parts.every((part, i) => {
      if (part.startsWith('{')) return segments[i] !== '';
      if (part === segments[i]) literals++;
      return part === segments[i];
    });
    if (matches && (!best || literals > best.literals)) best = { template, literals };
  }
  return best?.template;
}

/**
 * Throws unless `body` is what the 7.22 contract documents for this operation and status: the
 * schema's types, nullability, enums and Camunda's date format, and no property it does not declare.
 * An error status the contract does not list for the operation is checked against ExceptionDto.
 */
export function expectConforms(method: string, path: string, status: number, body: unknown): void {
  const template = matchPathTemplate(path);
  if (!template) throw new Error(`the contract has no path matching ${path}`);
  const operation = contract.paths[template][method.toLowerCase()];
  if (!operation) throw new Error(`the contract has no ${method} ${template}`);
  // Whatever a route documents for 403, Camunda's body for a denied permission is AuthorizationExceptionDto.
  const denied = status === 403 && (body as { type?: unknown } | undefined)?.type === 'AuthorizationException';
  const pointer = denied ? '#/components/schemas/AuthorizationExceptionDto' : responsePointer(template, method, operation, status);
  if (pointer === null) {
    if (body !== undefined && body !== '') throw new Error(`${method} ${template} ${status} must have no body`);
    return;
  }
  const validate = validatorFor(pointer);
  if (!validate(body)) {
    throw new Error(`${method} ${template} ${status} does not conform: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`);
  }
  const extra = undeclaredProperties(resolvePointer(pointer), body, '$');
  if (extra.length > 0) throw new Error(`${method} ${template} ${status} has undeclared properties: ${extra.join(', ')}`);
}

function responsePointer(template: string, method: string, operation: Operation, status: number): string | null {
  const response = operation.responses?.[String(status)];
  if (!response) {
    if (status >= 400) return status === 403 ? '#/components/schemas/AuthorizationExceptionDto' : '#/components/schemas/ExceptionDto';
    throw new Error(`the contract documents no ${status} for ${method} ${template}`);
  }
  const content = response.content?.['application/json'];
  if (!content?.schema) return null;
  const escaped = ['paths', template, method.toLowerCase(), 'responses', String(status), 'content', 'application/json', 'schema']
    .map((segment) => encodeURIComponent(segment.replace(/~/g, '~0').replace(/\//g, '~1')))
    .join('/');
  return `#/${escaped}`;
}

function validatorFor(pointer: string): ValidateFunction {
  let validate = compiled.get(pointer);
  if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `contract${pointer}` })));
  return validate;
}

function resolvePointer(pointer: string): Schema {
  return pointer
    .slice(2)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<any>((node, segment) => node[segment], contract);
}

function resolve(schema: Schema): Schema {
  if (schema.anyOf) return resolve(schema.anyOf[0]);
  return schema.$ref ? resolve(resolvePointer(schema.$ref)) : schema;
}

function allowNulls(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(allowNulls);
  if (node === null || typeof node !== 'object') return;
  const schema = node as Schema;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null)) schema.enum = [...schema.enum, null];
  if (schema.properties && typeof schema.properties === 'object') {
    for (const [name, property] of Object.entries(schema.properties as Record<string, Schema>)) {
      if (property && Object.keys(property).length === 1 && property.$ref) schema.properties[name] = { anyOf: [property, { type: 'null' }] };
    }
  }
  Object.values(schema).forEach(allowNulls);
}

/** Property names (as paths) present in the data that no schema along the way declares. */
function undeclaredProperties(schemaOrRef: Schema, data: unknown, at: string): string[] {
  const schema = resolve(schemaOrRef);
  if (Array.isArray(data)) return schema.items ? data.flatMap((item, i) => undeclaredProperties(schema.items, item, `${at}[${i}]`)) : [];
  if (data === null || typeof data !== 'object') return [];
  const declared = collectProperties(schema);
  if (declared === null) return [];
  const found: string[] = [];
  for (const [name, value] of Object.entries(data)) {
    const propertySchema = declared.properties[name] ?? (typeof declared.additional === 'object' ? declared.additional : undefined);
    if (propertySchema) found.push(...undeclaredProperties(propertySchema, value, `${at}.${name}`));
    else if (declared.additional !== true && !QUIRK_PROPERTIES.has(name)) found.push(`${at}.${name}`);
  }
  return found;
}

/** The properties an object schema declares, allOf flattened; null when it does not constrain them. */
function collectProperties(schema: Schema): { properties: Record<string, Schema>; additional: Schema | boolean } | null {
  const parts = schema.allOf ? schema.allOf.map(resolve) : [schema];
  const properties: Record<string, Schema> = {};
  let additional: Schema | boolean = false;
  let constrained = false;
  for (const part of parts) {
    const nested = part.allOf ? collectProperties(part) : null;
    if (nested) {
      Object.assign(properties, nested.properties);
      if (nested.additional) additional = nested.additional;
      constrained = true;
      continue;
    }
    if (part.properties) {
      Object.assign(properties, part.properties);
      constrained = true;
    }
    if (part.additionalProperties !== undefined && part.additionalProperties !== false) {
      additional = part.additionalProperties;
      constrained = true;
    }
  }
  return constrained ? { properties, additional } : null;
}

// Every resource is also served under /engine/{name}/…; the contract lists the short form.
const stripEnginePrefix = (path: string) => path.replace(/^\/engine\/[^/]+(?=\/)/, '');
