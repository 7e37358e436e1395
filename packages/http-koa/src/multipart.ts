import busboy from 'busboy';
import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';
import { bodyTooLarge } from './read-body.js';

/** One part of a multipart/form-data upload. */
export interface FormPart {
  fieldName: string;
  /** From Content-Disposition; undefined for a part sent without one. */
  fileName: string | undefined;
  contentType: string;
  bytes: Buffer;
}

export interface MultipartForm {
  /** Text parts (no file name, content type absent or text/plain), by name; the last of a name wins. */
  fields: Map<string, string>;
  /** Every other part: parts with a file name, and parts without one whose content is not text. */
  files: FormPart[];
}

/** Parses a multipart/form-data body of at most `limit` bytes: 415 for another content type, 400 when malformed, 413 when too large. */
export async function readMultipart(ctx: Context, limit: number): Promise<MultipartForm> {
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
      parser = busboy({ headers: ctx.req.headers, preservePath: true, limits: { fileSize: limit, fieldSize: limit } });
    } catch (error) {
      ctx.req.resume();
      reject(new InvalidRequestException(400, `Malformed multipart body: ${(error as Error).message}`));
      return;
    }
    const form: MultipartForm = { fields: new Map(), files: [] };
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
      if (isText(info.mimeType)) form.fields.set(name, value);
      else form.files.push({ fieldName: name, fileName: undefined, contentType: info.mimeType, bytes: Buffer.from(value) });
    });
    parser.on('file', (name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > limit) return fail(bodyTooLarge(limit));
        chunks.push(chunk);
      });
      stream.on('limit', () => fail(bodyTooLarge(limit)));
      stream.on('end', () => {
        form.files.push({ fieldName: name, fileName: info.filename, contentType: info.mimeType, bytes: Buffer.concat(chunks) });
      });
    });
    parser.on('error', (error: Error) => fail(new InvalidRequestException(400, `Malformed multipart body: ${error.message}`)));
    parser.on('close', () => {
      if (!failed) resolve(form);
    });
    ctx.req.pipe(parser);
  });
}

const isText = (mimeType: string) => mimeType === '' || mimeType.startsWith('text/plain');
