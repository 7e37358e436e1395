import type { ProcessEngine } from '@trellis/core';
import type { Context } from 'koa';
import type { FetchAndLockHandler } from '../fetch-and-lock-handler.js';

/** What every resource file needs from the adapter. */
export interface RestContext {
  engine: ProcessEngine;
  /** Request body size limit in bytes. */
  bodyLimit: number;
  /** Long polling of POST /external-task/fetchAndLock (one per engineRest(), shared by its mounts). */
  fetchAndLock?: FetchAndLockHandler;
}

/** The absolute URL of the REST root for this request (links are built from it, as in Camunda). */
export function baseUrlOf(ctx: Context): string {
  return `${ctx.protocol}://${ctx.host}${ctx.state.restBasePath ?? ''}`;
}

/** Camunda's DELETE flags: true only for the exact, first value `true`. */
export function strictFlag(ctx: Context, name: string): boolean {
  const value = ctx.query[name];
  return (Array.isArray(value) ? value[0] : value) === 'true';
}

/** JAX-RS primitive boolean query params: `true` in any case, anything else false. */
export function looseFlag(ctx: Context, name: string): boolean {
  const value = ctx.query[name];
  return String(Array.isArray(value) ? value[0] : value).toLowerCase() === 'true';
}
