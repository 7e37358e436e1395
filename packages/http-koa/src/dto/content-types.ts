import type { Context } from 'koa';
import { javaSplit } from '../query/parse-query.js';

const BY_EXTENSION: Record<string, string> = {
  bpmn: 'application/xml', cmmn: 'application/xml', dmn: 'application/xml', xml: 'application/xml',
  json: 'application/json',
  gif: 'image/gif', jpeg: 'image/jpeg', jpe: 'image/jpeg', jpg: 'image/jpeg', png: 'image/png',
  svg: 'image/svg+xml', tiff: 'image/tiff', tif: 'image/tiff', bmp: 'image/bmp',
  groovy: 'text/plain', java: 'text/plain', js: 'text/plain', php: 'text/plain', py: 'text/plain', rb: 'text/plain', txt: 'text/plain',
  html: 'text/html', htm: 'text/html',
};

/** Camunda's resource content type, chosen by the file extension (ContentTypeUtil / DeploymentResourcesResourceImpl). */
export function contentTypeFor(resourceName: string): string {
  const extension = resourceName.slice(resourceName.lastIndexOf('.') + 1).toLowerCase();
  return BY_EXTENSION[extension] ?? 'application/octet-stream';
}

/**
 * Camunda's URLEncodingUtil.buildAttachmentValue: `attachment; filename="<name>"; filename*=UTF-8''<encoded>`,
 * encoded as Java's URLEncoder encodes (only letters, digits and `.-*_` stay; a space is %20).
 */
export function attachmentDisposition(fileName: string): string {
  const encoded = encodeURIComponent(fileName).replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fileName}"; filename*=UTF-8''${encoded}`;
}

/** A deployment resource's file name as Camunda's DeploymentResourcesResourceImpl takes it: the last path segment, `\` counting as `/`; "data" without one. */
export function resourceFileName(resourceName: string): string {
  const segments = javaSplit(resourceName.replace(/\\/g, '/'), '/');
  return segments.length > 0 ? segments[segments.length - 1]! : 'data';
}

/** What Camunda answers generated and deployed HTML forms with. */
export const XHTML = 'application/xhtml+xml';

/**
 * A deployed form's file (Camunda's deployed-form / deployed-start-form): a Camunda Form as exactly
 * `application/json` (no charset, set after the body so Koa adds none), an HTML form as XHTML.
 */
export function sendDeployedForm(ctx: Context, form: { bytes: Buffer; isCamundaForm: boolean }): void {
  if (!form.isCamundaForm) ctx.type = XHTML;
  ctx.body = form.bytes;
  if (form.isCamundaForm) ctx.set('Content-Type', 'application/json');
}

/** The media types Camunda's reports answer (JSON, or CSV when asked for). */
export const REPORT_MEDIA_TYPES = ['application/json', 'application/csv', 'text/csv'];

const TOKEN = "[!#$%&'*+\\-.0-9A-Z^_`a-z{|}~]";
const MIME_TOKEN = new RegExp(`^${TOKEN}+$`);
const MIME_PARAMETER = new RegExp(`^\\s*;\\s*(?:$|(${TOKEN}*)\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(${TOKEN}+)))`);

/**
 * A media type read as Camunda reads a form part's (javax.activation.MimeType): `type/subtype` tokens,
 * lower-cased, then `; name=value` parameters, names lower-cased, a quoted value unquoted; null when
 * malformed (where MimeType throws its MimeTypeParseException).
 */
export function parseMimeType(text: string): { baseType: string; parameters: Map<string, string> } | null {
  const slash = text.indexOf('/');
  const semicolon = text.indexOf(';');
  if (slash < 0 || (semicolon >= 0 && semicolon < slash)) return null;
  const primary = text.slice(0, slash).trim().toLowerCase();
  const sub = text.slice(slash + 1, semicolon < 0 ? undefined : semicolon).trim().toLowerCase();
  if (!MIME_TOKEN.test(primary) || !MIME_TOKEN.test(sub)) return null;
  const parameters = new Map<string, string>();
  for (let rest = semicolon < 0 ? '' : text.slice(semicolon); rest.trim() !== '';) {
    const match = MIME_PARAMETER.exec(rest);
    if (!match) return null;
    if (match[1] !== undefined) parameters.set(match[1].toLowerCase(), match[3] ?? match[2]!.replace(/\\(.)/g, '$1'));
    rest = rest.slice(match[0].length);
  }
  return { baseType: `${primary}/${sub}`, parameters };
}
