import busboy from 'busboy';
import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';
import { bodyTooLarge } from './read-body.js';

/** One part of a multipart/form-data upload. */
export interface FormPart {
  fieldName: string;
  /** From Content-Disposition; undefined for a part sent without one. */
  fileName: string | undefined;
  /** The part's Content-Type header as sent, parameters included; undefined when it has none (or `partContentTypes` was not asked for). */
  contentType: string | undefined;
  bytes: Buffer;
}

export interface MultipartForm {
  /** Text parts (no file name, content type absent or text/plain), by name; the last of a name wins. */
  fields: Map<string, string>;
  /** Every other part: parts with a file name, and parts without one whose content is not text. */
  files: FormPart[];
  /** The Content-Type header of each text part, by name, as `FormPart.contentType`. */
  fieldContentTypes: Map<string, string | undefined>;
  /** Every part by name, the last of a name winning (Camunda's MultipartFormData); a text part's bytes are its UTF-8 text. */
  parts: Map<string, FormPart>;
}

/**
 * Parses a multipart/form-data body of at most `limit` bytes: 415 for another content type, 400 when
 * malformed, 413 when too large. With `partContentTypes` the parts' Content-Type headers are read too,
 * from a copy of the body kept for it (only variable uploads need them; deployments do not pay for it).
 */
export async function readMultipart(ctx: Context, limit: number, options: { partContentTypes?: boolean } = {}): Promise<MultipartForm> {
  if (!ctx.is('multipart/form-data')) {
    ctx.req.resume();
    throw new InvalidRequestException(415, 'HTTP 415 Unsupported Media Type', 'RestException');
  }
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > limit) {
    ctx.req.resume();
    throw bodyTooLarge(limit);
  }
  return new Promise<MultipartForm>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // Header parameters (a file name) in UTF-8, as browsers send them and Camunda's commons-fileupload reads them.
      parser = busboy({ headers: ctx.req.headers, preservePath: true, defParamCharset: 'utf8', limits: { fileSize: limit, fieldSize: limit } });
    } catch (error) {
      ctx.req.resume();
      reject(new InvalidRequestException(400, `Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const form: MultipartForm = { fields: new Map(), files: [], fieldContentTypes: new Map(), parts: new Map() };
    // busboy reports a part's type without its parameters, and text/plain for one sent without or with a
    // malformed Content-Type; the raw headers come from the body itself once busboy has read it.
    const raw: Buffer[] = [];
    const fieldParts = new Map<string, number>();
    const fileParts: number[] = [];
    let parts = 0;
    let total = 0;
    let failed = false;
    const fail = (error: InvalidRequestException) => {
      if (failed) return;
      failed = true;
      ctx.req.unpipe(parser);
      ctx.req.resume();
      reject(error);
    };
    parser.on('field', (name, value, info) => {
      total += Buffer.byteLength(value);
      if (total > limit || info.valueTruncated) return fail(bodyTooLarge(limit));
      const part = parts++;
      const formPart: FormPart = { fieldName: name, fileName: undefined, contentType: undefined, bytes: Buffer.from(value) };
      form.parts.set(name, formPart);
      if (isText(info.mimeType)) {
        form.fields.set(name, value);
        fieldParts.set(name, part);
      } else {
        fileParts.push(part);
        form.files.push(formPart);
      }
    });
    parser.on('file', (name, stream, info) => {
      fileParts.push(parts++);
      // Its place among the files is taken now, in part order; the bytes arrive with the stream's end.
      const file: FormPart = { fieldName: name, fileName: info.filename, contentType: undefined, bytes: Buffer.alloc(0) };
      form.files.push(file);
      form.parts.set(name, file);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) return fail(bodyTooLarge(limit));
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(bodyTooLarge(limit)));
      stream.on('end', () => {
        file.bytes = Buffer.concat(chunks);
      });
    });
    parser.on('error', (error: Error) => fail(new InvalidRequestException(400, `Malformed multipart body: ${error.message}`)));
    parser.on('close', () => {
      if (failed) return;
      if (options.partContentTypes) {
        const types = partContentTypes(Buffer.concat(raw), ctx.get('Content-Type'));
        form.files.forEach((file, i) => (file.contentType = types[fileParts[i]!]));
        for (const [name, part] of fieldParts) form.fieldContentTypes.set(name, types[part]);
      }
      resolve(form);
    });
    if (options.partContentTypes) {
      ctx.req.on('data', (chunk: Buffer) => {
        if (!failed) raw.push(chunk);
      });
    }
    ctx.req.pipe(parser);
  });
}

const isText = (mimeType: string) => mimeType === '' || mimeType.startsWith('text/plain');

/**
 * The Content-Type header of each part of a multipart body, in the order busboy reports parts (it
 * skips those without a `form-data` Content-Disposition); undefined for a part without one.
 */
function partContentTypes(body: Buffer, requestType: string): (string | undefined)[] {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(requestType);
  if (!boundary) return [];
  const delimiter = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const text = Buffer.concat([Buffer.from('\r\n'), body]);
  const types: (string | undefined)[] = [];
  for (let at = text.indexOf(delimiter); at >= 0;) {
    if (text.toString('latin1', at + delimiter.length, at + delimiter.length + 2) === '--') break;
    const start = text.indexOf('\r\n', at + delimiter.length) + 2;
    const end = text.indexOf('\r\n\r\n', start - 2); // start - 2: a part may have no headers at all
    if (start < 2 || end < 0) break;
    const headers = new Map<string, string>();
    for (const line of text.toString('latin1', start, end).split('\r\n')) {
      const colon = line.indexOf(':');
      const name = line.slice(0, colon).trim().toLowerCase();
      if (colon > 0 && !headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
    }
    if (headers.get('content-disposition')?.split(';')[0]!.trim().toLowerCase() === 'form-data') types.push(headers.get('content-type'));
    at = text.indexOf(delimiter, end + 4);
  }
  return types;
}
