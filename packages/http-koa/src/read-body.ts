import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';

/**
 * Reads the raw request body up to `limit` bytes. A larger body is refused with 413 as soon as
 * the limit is crossed (declared or streamed); the rest of the upload is drained, never buffered.
 */
export function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('Content-Length'));
  const request = ctx.req;
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.reject(bodyTooLarge(limit));
  }
  if (request.readableEnded) return Promise.resolve(Buffer.alloc(0));
  // Events rather than `for await`: an async iterator per request cost the small bodies of every
  // worker's complete more than reading them.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        fail(bodyTooLarge(limit));
        request.resume();
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      settle();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
    };
    const onClose = () => fail(Object.assign(new Error('The request was closed before its body was read'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    const fail = (error: Error) => {
      settle();
      reject(error);
    };
    const settle = () => {
      request.off('data', onData).off('end', onEnd).off('error', fail).off('close', onClose);
    };
    request.on('data', onData).on('end', onEnd).on('error', fail).on('close', onClose);
  });
}

export function bodyTooLarge(limit: number): InvalidRequestException {
  return new InvalidRequestException(413, `The request body exceeds the limit of ${limit} bytes`);
}
