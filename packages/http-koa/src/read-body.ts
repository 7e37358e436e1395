import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';

/**
 * Reads the raw request body up to `limit` bytes. A larger body is refused with 413 as soon as
 * the limit is crossed (declared or streamed); the rest of the upload is drained, never buffered.
 */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > limit) {
    ctx.req.resume();
    throw bodyTooLarge(limit);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      ctx.req.resume();
      throw bodyTooLarge(limit);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export function bodyTooLarge(limit: number): InvalidRequestException {
  return new InvalidRequestException(413, `The request body exceeds the limit of ${limit} bytes`);
}
