import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';
import { readRawBody } from './read-body.js';
import { jacksonBoolean, jacksonDate, jacksonInteger, jacksonNullText } from './query/parse-query.js';

/**
 * Reads a JSON request body as Camunda's JAX-RS stack does: an empty body counts as `{}`,
 * malformed JSON is a 400 with an empty message, another content type is a 415.
 * With `optional`, a request without a body (and without a content type) yields null.
 */
export async function readJsonBody(ctx: Context, limit: number, options: { optional?: boolean } = {}): Promise<unknown> {
  const raw = await readJsonText(ctx, limit, options);
  if (raw === null) return null;
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    // Camunda's JsonParseExceptionHandler answers with an empty message.
    throw new InvalidRequestException(400, '');
  }
}

/**
 * A JSON request body's text, unparsed (a resource that binds its body as a String, as Camunda's
 * filter queries): another content type is a 415; with `optional`, no body and no content type is null.
 */
export async function readJsonText(ctx: Context, limit: number, options: { optional?: boolean } = {}): Promise<string | null> {
  const hasBody = ctx.request.length > 0 || ctx.get('Transfer-Encoding') !== '';
  if (!hasBody && options.optional && !ctx.get('Content-Type')) return null;
  if (hasBody && !isJson(ctx)) {
    ctx.req.resume();
    throw new InvalidRequestException(415, 'HTTP 415 Unsupported Media Type', 'RestException');
  }
  return (await readRawBody(ctx, limit)).toString('utf8');
}

/** Whether the body is JSON; the plain `application/json` every client sends is recognized without parsing the header. */
function isJson(ctx: Context): boolean {
  const type = ctx.get('Content-Type');
  if (type === 'application/json' || /^application\/json\s*;\s*charset=utf-8$/i.test(type)) return true;
  return Boolean(ctx.is('application/json', '+json'));
}

/** A JSON body that must be an object (most Camunda request DTOs). */
export async function readJsonObject(ctx: Context, limit: number): Promise<Record<string, unknown>> {
  const body = await readJsonBody(ctx, limit);
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidRequestException(400, '');
  return body as Record<string, unknown>;
}

/** What Camunda's JsonMappingExceptionHandler answers for a field Jackson cannot bind: 400, an empty message. */
const unbindable = () => new InvalidRequestException(400, '');

/**
 * A String field of a request DTO as Jackson binds it: text, or a number's or boolean's text; null
 * when missing or null; an object or a list fails the request (400).
 */
export const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw unbindable();
};

/** A boolean field of a request DTO as Jackson binds it (true / false, Java's spellings as text); false when missing, null or null text (jacksonNullText); anything else fails the request (400). */
export const flag = (value: unknown): boolean => {
  if (value === undefined || value === null || jacksonNullText(value)) return false;
  const bound = jacksonBoolean(value);
  if (bound === null) throw unbindable();
  return bound;
};

/** A Boolean field of a request DTO as Jackson binds it; null when missing, null or null text (jacksonNullText); anything else fails the request (400). */
export const nullableFlag = (value: unknown): boolean | null => (value === undefined || value === null || jacksonNullText(value) ? null : flag(value));

/** A Date field of a request DTO as Jackson binds it: the REST date format, or epoch milliseconds; null when missing, null or null text (jacksonNullText); anything else fails the request (400). */
export const dateValue = (value: unknown): Date | null => {
  if (value === undefined || value === null || jacksonNullText(value)) return null;
  const date = jacksonDate(value);
  if (!date) throw unbindable();
  return date;
};

/** An Integer or Long field of a request DTO as Jackson binds it (integral text too, a fraction cut); null when missing, null or null text (jacksonNullText); anything else fails the request (400). */
export const integer = (value: unknown): number | null => {
  if (value === undefined || value === null || jacksonNullText(value)) return null;
  const bound = jacksonInteger(value);
  if (bound === null) throw unbindable();
  return bound;
};
/**
 * A nested DTO of a request body (a query inside a batch request, say): null when missing or null;
 * anything but a JSON object cannot bind (400 with an empty message, as Jackson fails).
 */
export const nestedDto = (value: unknown): Record<string, unknown> | null => {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw unbindable();
  return value as Record<string, unknown>;
};

/**
 * A JSON List<String> as Jackson binds it: null when missing or null; numbers and booleans become
 * text, null items stay; anything else cannot bind (400 with an empty message).
 */
export const idList = (value: unknown): Array<string | null> | null => {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw unbindable();
  return value.map((each) => (each === null ? null : text(each)));
};

/** A nested DTO (nestedDto) converted, or null when missing. */
export const mapNested = <T>(value: unknown, convert: (dto: Record<string, unknown>) => T): T | null => {
  const dto = nestedDto(value);
  return dto === null ? null : convert(dto);
};

/** A JSON field as an object, or {} when it is missing or not an object. */
export const objectOf = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
