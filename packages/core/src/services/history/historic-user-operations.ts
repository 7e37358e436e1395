import { Resources } from '../../authorization/resources.js';
import type { PermissionCheck } from '../../authorization/authorization-checker.js';
import type { CommandContext } from '../../command/command-context.js';
import type { CommandExecutor } from '../../command/command-executor.js';
import { ensureNotNull } from '../../errors/ensure.js';
import { BadUserRequestException, NotValidException } from '../../errors/exceptions.js';
import { OperationLogCategory, UserOperationLog } from '../../history/user-operation-log.js';
import { UserOperationLogRepository, type OperationLogReadFilter } from '../../persistence/repositories/user-operation-log-repository.js';
import type { UserOperationLogEntry, UserOperationLogQuery } from './historic-user-operation-types.js';

/**
 * The user operation log (engine.history.userOperations). Lists show the entries the caller has
 * READ_HISTORY on through their definition key or READ on through their category
 * (OPERATION_LOG_CATEGORY), as Camunda 7.22's UserOperationLogQuery checks, and of no tenant or
 * one of the caller's (its tenant check).
 */
export class HistoricUserOperations {
  constructor(private readonly commands: CommandExecutor) {}

  find(query: UserOperationLogQuery = {}): Promise<UserOperationLogEntry[]> {
    return this.commands.run('UserOperationLogQuery', async (ctx) => new UserOperationLogRepository(ctx.trx).find(ctx.tenantCheck.query(query), await readable(ctx)));
  }

  count(query: UserOperationLogQuery = {}): Promise<number> {
    return this.commands.run('UserOperationLogQuery', async (ctx) => new UserOperationLogRepository(ctx.trx).count(ctx.tenantCheck.query(query), await readable(ctx)));
  }

  /** Camunda's SetAnnotationForOperationLog: annotates every entry of the operation; null clears it. */
  setAnnotation(operationId: string | null | undefined, annotation: string | null): Promise<void> {
    return this.commands.run('SetAnnotationForOperationLog', async (ctx) => {
      const id = ensureNotNull(operationId, 'operation id', '', NotValidException);
      const repository = new UserOperationLogRepository(ctx.trx);
      const entry = ensureNotNull(await repository.firstOfOperation(id), 'operation', '', BadUserRequestException);
      await checkUpdate(ctx, entry);
      await repository.setAnnotation(id, annotation);
      UserOperationLog.write(ctx, {
        operationType: annotation === null ? 'ClearAnnotation' : 'SetAnnotation',
        entityType: 'OperationLog',
        category: OperationLogCategory.operator,
        changes: [{ property: 'operationId', newValue: id }],
        tenantId: entry.tenantId,
      });
    });
  }

  /** Camunda's clearAnnotationForOperationLogById. */
  clearAnnotation(operationId: string | null | undefined): Promise<void> {
    return this.setAnnotation(operationId, null);
  }
}

/** Camunda's configureUserOperationLogQuery: READ_HISTORY on the definition (or instance permissions) or READ on the category. */
async function readable(ctx: CommandContext): Promise<OperationLogReadFilter> {
  const history = await ctx.authz.historyFilter();
  const category = await ctx.authz.readFilter('READ', Resources.OPERATION_LOG_CATEGORY);
  return history && category ? { history, category } : null;
}

/** UPDATE_HISTORY on the definition key or UPDATE on the category, whichever the entry has; neither: no check. */
async function checkUpdate(ctx: CommandContext, entry: UserOperationLogEntry): Promise<void> {
  ctx.tenantCheck.require(entry.tenantId, `update the user operation log entry '${entry.id}'`);
  const checks: PermissionCheck[] = [];
  if (entry.processDefinitionKey) checks.push({ permission: 'UPDATE_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: entry.processDefinitionKey });
  if (entry.category) checks.push({ permission: 'UPDATE', resource: Resources.OPERATION_LOG_CATEGORY, resourceId: entry.category });
  if (checks.length > 0) await ctx.authz.checkComposite(...checks);
}
