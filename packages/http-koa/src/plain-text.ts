import { AuthorizationException, ProcessEngineException } from '@trellis/core';
import type { Context } from 'koa';
import { InvalidRequestException } from './errors/rest-exception.js';

/**
 * A text/plain answer (a stack trace, error details): 204 when there is none, as JAX-RS answers a
 * null entity. With `engineErrorsAs404`, an engine error (unknown id) becomes Camunda's 404.
 */
export async function plainText(ctx: Context, load: () => Promise<string | null>, engineErrorsAs404 = true): Promise<void> {
  let text: string | null;
  try {
    text = await load();
  } catch (error) {
    if (!engineErrorsAs404 || error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
    throw new InvalidRequestException(404, error.message);
  }
  if (text === null) {
    ctx.status = 204;
    return;
  }
  ctx.body = text;
  ctx.set('Content-Type', 'text/plain');
}
