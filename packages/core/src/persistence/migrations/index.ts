import { init } from './0001-init.js';
import { identityAndAuthorization } from './0002-identity-and-authorization.js';
import { runtime } from './0003-runtime.js';
import { scopesJobsEvents } from './0004-scopes-jobs-events.js';
import { externalTasks } from './0005-external-tasks.js';
import { taskDelegation } from './0006-task-delegation.js';
import { comments } from './0007-comments.js';
import { batches } from './0008-batches.js';
import { historicBatches } from './0009-historic-batches.js';
import { metrics } from './0010-metrics.js';
import { history } from './0011-history.js';
import { historicVariables } from './0012-historic-variables.js';
import { historicTasks } from './0013-historic-tasks.js';
import { historicIncidentsAndLogs } from './0014-historic-incidents-and-logs.js';
import { userOperationLog } from './0015-user-operation-log.js';
import { historyCleanup } from './0016-history-cleanup.js';
import { externalTaskFetchOrder } from './0017-external-task-fetch-order.js';
import { compensatingExecutions } from './0018-compensating-executions.js';
import { compensationConfiguration } from './0019-compensation-configuration.js';
import { userLockout } from './0020-user-lockout.js';
import { attachments } from './0021-attachments.js';
import { commentRemovalTime } from './0022-comment-removal-time.js';
import { inPlaceLockUpdates } from './0023-in-place-lock-updates.js';
import { subTasks } from './0024-sub-tasks.js';
import { filters } from './0025-filters.js';
import { tenants } from './0026-tenants.js';
import { taskLastUpdated } from './0027-task-last-updated.js';
import { taskIdentityLinkTypes } from './0028-task-identity-link-types.js';
import { timerRepeatOffset } from './0029-timer-repeat-offset.js';
import { batchVariables } from './0030-batch-variables.js';
import { camundaFormDefinitions } from './0031-camunda-form-definitions.js';
import { uniqueAuthorizationsAndMemberships } from './0032-unique-authorizations-and-memberships.js';
import type { Migration } from './migration.js';

/** Every schema change in order. Append only: a released migration is never edited. */
export const migrations: readonly Migration[] = [
  init,
  identityAndAuthorization,
  runtime,
  scopesJobsEvents,
  externalTasks,
  taskDelegation,
  comments,
  batches,
  historicBatches,
  metrics,
  history,
  historicVariables,
  historicTasks,
  historicIncidentsAndLogs,
  userOperationLog,
  historyCleanup,
  externalTaskFetchOrder,
  compensatingExecutions,
  compensationConfiguration,
  userLockout,
  attachments,
  commentRemovalTime,
  inPlaceLockUpdates,
  subTasks,
  filters,
  tenants,
  taskLastUpdated,
  taskIdentityLinkTypes,
  timerRepeatOffset,
  batchVariables,
  camundaFormDefinitions,
  uniqueAuthorizationsAndMemberships,
];
export type { Migration } from './migration.js';
