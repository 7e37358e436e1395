import {
  AuthorizationException,
  BadUserRequestException,
  MigratingProcessInstanceValidationException,
  MigrationPlanValidationException,
  ParseException,
  ProcessEngineException,
  type Logger,
  type ResourceReport,
} from '@trellis/core';
import type { Context, Middleware } from 'koa';
import { InvalidRequestException } from './rest-exception.js';
import { toMigratingProcessInstanceReportDto, toMigrationPlanReportDto } from '../dto/migration-dto.js';

/**
 * The one place where an error becomes an HTTP status and a Camunda error body
 * `{type, message, code}` (plus the fields Camunda adds for its type). A stack never leaves.
 */
export function errorMiddleware(logger?: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const { status, body } = toErrorResponse(error);
      if (status >= 500) logger?.error(`${ctx.method} ${ctx.path} failed`, error);
      respondWithError(ctx, status, body);
    }
  };
}

/** Writes an error body; jsonResponse() serializes it with the bare `application/json` type. */
export function respondWithError(ctx: Context, status: number, body: Record<string, unknown>): void {
  ctx.status = status;
  ctx.body = body;
}

export function toErrorResponse(error: unknown): { status: number; body: Record<string, unknown> } {
  if (error instanceof InvalidRequestException) {
    return { status: error.status, body: { type: error.type, message: error.message, code: error.code } };
  }
  if (error instanceof AuthorizationException) return { status: 403, body: authorizationBody(error) };
  if (error instanceof ParseException) {
    return { status: 400, body: { ...engineBody(error), details: parseDetails(error.details) } };
  }
  if (error instanceof MigrationPlanValidationException) {
    return { status: 400, body: { ...engineBody(error), validationReport: toMigrationPlanReportDto(error.validationReport) } };
  }
  if (error instanceof MigratingProcessInstanceValidationException) {
    return { status: 400, body: { ...engineBody(error), validationReport: toMigratingProcessInstanceReportDto(error.validationReport) } };
  }
  if (error instanceof BadUserRequestException) return { status: 400, body: engineBody(error) };
  if (ProcessEngineException.is(error)) return { status: 500, body: engineBody(error) };
  const httpStatus = (error as { status?: unknown; expose?: unknown })?.status;
  if (httpStatus === 405) {
    return { status: 405, body: { type: 'NotAllowedException', message: 'HTTP 405 Method Not Allowed', code: null } };
  }
  if (typeof httpStatus === 'number' && httpStatus >= 400 && httpStatus < 500) {
    return { status: httpStatus, body: { type: 'RestException', message: (error as Error).message, code: null } };
  }
  const name = error instanceof Error ? error.name : 'Error';
  return { status: 500, body: { type: name, message: error instanceof Error ? error.message : String(error), code: null } };
}

function engineBody(error: ProcessEngineException) {
  return { type: error.name, message: error.message, code: error.code };
}

// The deprecated single-permission fields are filled only when exactly one authorization is missing.
function authorizationBody(error: AuthorizationException) {
  const single = error.missingAuthorizations.length === 1 ? error.missingAuthorizations[0] : null;
  return {
    ...engineBody(error),
    userId: error.userId,
    resourceName: single?.resourceName ?? null,
    resourceId: single?.resourceId ?? null,
    permissionName: single?.permissionName ?? null,
    missingAuthorizations: error.missingAuthorizations,
  };
}

// Camunda quirk (ProblemDto): the element id list is serialized under a key spelled with a Cyrillic 'е' (U+0435).
const ELEMENT_IDS_KEY = '\u0435lementIds';

function parseDetails(details: Record<string, ResourceReport>) {
  const problems = (list: ResourceReport['errors']) =>
    list.map(({ message, line, column, mainElementId, elementIds }) => ({
      message, line, column, mainElementId, [ELEMENT_IDS_KEY]: elementIds,
    }));
  return Object.fromEntries(
    Object.entries(details).map(([resource, report]) => [resource, { errors: problems(report.errors), warnings: problems(report.warnings) }]),
  );
}
