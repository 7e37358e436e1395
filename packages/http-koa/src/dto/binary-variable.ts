import type { Context } from 'koa';
import { JSON_DATA_FORMAT, type TypedValue } from '@trellis/core';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { readMultipart } from '../multipart.js';
import { attachmentDisposition, parseMimeType } from './content-types.js';
import { fromVariableValueDto, IllegalArgumentException, VariableValueError } from './variable-dto.js';

/**
 * Camunda's AbstractVariablesResource.getTypedValueForVariable: the named variable, or a 404
 * `<kind> variable with name <name> does not exist` (kind: "process instance", "execution", "task").
 */
export function namedVariable(variables: Record<string, TypedValue>, name: string, kind: string): TypedValue {
  const value = variables[name];
  if (value === undefined) throw new InvalidRequestException(404, `${kind} variable with name ${name} does not exist`);
  return value;
}

/**
 * Camunda's VariableResponseProvider: a Bytes value as application/octet-stream, a File value with its
 * mime type (and charset) as an attachment; any other type is a 400 naming `id` (the variable instance's
 * id, or the process instance, execution or task the variable belongs to, as Camunda does).
 */
export function writeBinaryVariable(ctx: Context, typed: TypedValue, id: string): void {
  if (typed.type === 'bytes') {
    ctx.body = typed.value ?? Buffer.alloc(0);
    ctx.set('Content-Type', 'application/octet-stream');
  } else if (typed.type === 'file') {
    const { bytes, filename, mimeType, encoding } = typed.value;
    ctx.body = bytes ?? Buffer.alloc(0);
    ctx.set('Content-Type', `${mimeType ?? 'application/octet-stream'}${encoding === null ? '' : `; charset=${encoding}`}`);
    ctx.set('Content-Disposition', attachmentDisposition(filename));
  } else {
    throw new InvalidRequestException(400, `Value of variable with id ${id} is not a binary value.`);
  }
}

/**
 * The value of a POST …/{varName}/data upload, following AbstractVariablesResource.setBinaryVariable:
 * part `data` holds the content; with a `type` part it is a JSON-serialized Object of that type,
 * otherwise it is a value of the `valueType` part's type (default Bytes).
 */
export async function readBinaryVariable(ctx: Context, limit: number): Promise<TypedValue> {
  const form = await readMultipart(ctx, limit, { partContentTypes: true });
  const text = form.fields.get('data');
  const data = form.files.find((part) => part.fieldName === 'data')
    ?? (text === undefined ? undefined : { fileName: undefined, contentType: form.fieldContentTypes.get('data'), bytes: Buffer.from(text) });
  if (!data) throw new InvalidRequestException(400, "Form part with name 'data' is missing");
  const objectType = form.fields.get('type');
  if (objectType !== undefined) {
    if (!data.contentType?.toLowerCase().includes(JSON_DATA_FORMAT)) {
      throw new InvalidRequestException(400, `Unrecognized content type for serialized java type: ${data.contentType ?? null}`);
    }
    const serializedValue = data.bytes.toString('utf8');
    return { type: 'object', value: { serializedValue, objectTypeName: objectType, serializationDataFormat: JSON_DATA_FORMAT }, valueInfo: {} };
  }
  if (form.files.some((part) => part.fieldName === 'valueType')) {
    throw new InvalidRequestException(400, "Form part with name 'valueType' must have a text/plain value");
  }
  const valueType = form.fields.get('valueType') ?? 'Bytes';
  const name = valueType.slice(0, 1).toLowerCase() + valueType.slice(1);
  const valueInfo = name === 'file' ? fileValueInfo(data.fileName, data.contentType) : {};
  // VariableValueDto.fromFormPart passes the part's bytes as they are: a byte[] where Json, Xml and Object
  // want a String is refused; a primitive reads them as base64 text.
  const value = name === 'json' || name === 'xml' || name === 'object' ? data.bytes : data.bytes.toString('base64');
  try {
    return fromVariableValueDto('data', { type: valueType, value, valueInfo });
  } catch (error) {
    if (error instanceof IllegalArgumentException) throw error;
    // Camunda lets these escape setBinaryVariable unprefixed: a refused type is a 400, a value type's failure a 500.
    const status = error instanceof VariableValueError ? error.status : 500;
    throw new InvalidRequestException(status, (error as Error).message, status === 400 ? 'InvalidRequestException' : 'RestException');
  }
}

/**
 * A File upload's valueInfo as VariableValueDto.fromFormPart builds it: the part's file name, its base
 * media type (application/octet-stream when it has none), the `encoding` parameter, and `transient=true`
 * to keep the variable out of the database.
 */
function fileValueInfo(filename: string | undefined, contentType: string | undefined): Record<string, unknown> {
  const mimeType = parseMimeType(contentType ?? 'application/octet-stream');
  if (!mimeType) throw new InvalidRequestException(400, 'Invalid mime type given', 'RestException');
  const encoding = mimeType.parameters.get('encoding');
  const transient = mimeType.parameters.get('transient')?.toLowerCase() === 'true';
  return { filename: filename ?? null, mimeType: mimeType.baseType, ...(encoding === undefined ? {} : { encoding }), ...(transient ? { transient } : {}) };
}
