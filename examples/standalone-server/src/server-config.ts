import { isLogLevel, type EngineConfig, type HistoryLevel, type LogLevel } from '@trellis/core';
import { resolve } from 'node:path';

/** The standalone server's settings, read from the environment (see README: Configuration). */
export interface ServerConfig {
  port: number;
  host: string;
  basePath: string;
  bodyLimit: number;
  /** Long-polling fetchAndLock requests that may wait at once. */
  fetchAndLockQueueCapacity: number;
  /** A waiting fetchAndLock cancels the older waiting ones of its worker (503). */
  fetchAndLockUniqueWorkerRequest: boolean;
  /** Prometheus on a port of its own; null: GET /prometheus on the main port. */
  metricsPort: number | null;
  logLevel: LogLevel;
  /** HTTP Basic authentication on the REST API. */
  basicAuth: boolean;
  /** Created (or made administrator) at start, when both are set. */
  admin: { userId: string; password: string } | null;
  engine: EngineConfig;
}

export function serverConfigFromEnv(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const logLevel = env.TRELLIS_LOG_LEVEL ?? 'info';
  if (!isLogLevel(logLevel)) throw new Error(`TRELLIS_LOG_LEVEL must be debug, info, warn, error or silent, got '${logLevel}'`);
  const port = Number(env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const bodyLimit = Number(env.TRELLIS_BODY_LIMIT ?? 10 * 1024 * 1024);
  if (!Number.isInteger(bodyLimit) || bodyLimit <= 0) throw new Error(`TRELLIS_BODY_LIMIT must be a byte count, got '${env.TRELLIS_BODY_LIMIT}'`);
  const fetchAndLockQueueCapacity = Number(env.TRELLIS_FETCH_AND_LOCK_QUEUE_CAPACITY ?? 200);
  if (!Number.isInteger(fetchAndLockQueueCapacity) || fetchAndLockQueueCapacity < 0) {
    throw new Error(`TRELLIS_FETCH_AND_LOCK_QUEUE_CAPACITY must be a whole number, got '${env.TRELLIS_FETCH_AND_LOCK_QUEUE_CAPACITY}'`);
  }
  const fetchAndLockUniqueWorkerRequest = flag(env.TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST, 'TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST');
  const poolSize = optionalWholeNumber(env, 'TRELLIS_DATABASE_POOL_SIZE', 1, Infinity, 'a whole number of at least 1');
  const store: EngineConfig['store'] = env.TRELLIS_DATABASE_URL
    ? { type: 'postgres', connectionString: env.TRELLIS_DATABASE_URL, schema: env.TRELLIS_DATABASE_SCHEMA, ...(poolSize === undefined ? {} : { poolSize }) }
    : { type: 'sqlite', filename: resolve(invokedFrom(env), env.TRELLIS_DATA_DIR ?? 'data', 'trellis.db') };
  const auth = env.TRELLIS_AUTH ?? 'none';
  if (auth !== 'none' && auth !== 'basic') throw new Error(`TRELLIS_AUTH must be none or basic, got '${auth}'`);
  const authorization = flag(env.TRELLIS_AUTHORIZATION, 'TRELLIS_AUTHORIZATION');
  const enforceSpecificVariablePermission = flag(env.TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION, 'TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION');
  const enableHistoricInstancePermissions = flag(env.TRELLIS_HISTORIC_INSTANCE_PERMISSIONS, 'TRELLIS_HISTORIC_INSTANCE_PERMISSIONS');
  const scripting = flag(env.TRELLIS_SCRIPTING, 'TRELLIS_SCRIPTING');
  const enablePasswordPolicy = flag(env.TRELLIS_PASSWORD_POLICY, 'TRELLIS_PASSWORD_POLICY');
  // On unless set to false (Camunda's tenantCheckEnabled).
  const tenantCheckEnabled = env.TRELLIS_TENANT_CHECK === undefined || env.TRELLIS_TENANT_CHECK === '' || flag(env.TRELLIS_TENANT_CHECK, 'TRELLIS_TENANT_CHECK');
  const metricsPort = optionalWholeNumber(env, 'TRELLIS_METRICS_PORT', 0, 65535, 'a port number') ?? null;
  const admin = env.TRELLIS_ADMIN_USER && env.TRELLIS_ADMIN_PASSWORD ? { userId: env.TRELLIS_ADMIN_USER, password: env.TRELLIS_ADMIN_PASSWORD } : null;
  return {
    port,
    basicAuth: auth === 'basic',
    admin,
    host: env.HOST ?? '0.0.0.0',
    basePath: env.TRELLIS_BASE_PATH ?? '/engine-rest',
    bodyLimit,
    fetchAndLockQueueCapacity,
    fetchAndLockUniqueWorkerRequest,
    metricsPort,
    logLevel,
    engine: {
      store,
      logLevel,
      authorization: { enabled: authorization, enforceSpecificVariablePermission, enableHistoricInstancePermissions },
      scripting: { enabled: scripting },
      enablePasswordPolicy,
      tenantCheckEnabled,
      // The engine validates the level (none, activity, audit, full) when it starts.
      ...(env.TRELLIS_HISTORY_LEVEL ? { historyLevel: env.TRELLIS_HISTORY_LEVEL as HistoryLevel } : {}),
      ...historyCleanupWindow(env.TRELLIS_HISTORY_CLEANUP_WINDOW),
      // The engine validates it (days, or P<n>D) when it starts.
      ...(env.TRELLIS_TASK_METRICS_TIME_TO_LIVE ? { taskMetricsTimeToLive: env.TRELLIS_TASK_METRICS_TIME_TO_LIVE } : {}),
      ...(env.TRELLIS_FAILED_JOB_RETRY_TIME_CYCLE ? { failedJobRetryTimeCycle: env.TRELLIS_FAILED_JOB_RETRY_TIME_CYCLE } : {}),
      reevaluateTimeCycleWhenDue: flag(env.TRELLIS_REEVALUATE_TIME_CYCLE_WHEN_DUE, 'TRELLIS_REEVALUATE_TIME_CYCLE_WHEN_DUE'),
      skipOutputMappingOnCanceledActivities: flag(env.TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES, 'TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES'),
      disableStrictCamundaFormParsing: flag(env.TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING, 'TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING'),
      // The engine compiles them when it starts (a pattern that is no regular expression stops it there).
      ...(env.TRELLIS_GENERAL_RESOURCE_WHITELIST_PATTERN ? { generalResourceWhitelistPattern: env.TRELLIS_GENERAL_RESOURCE_WHITELIST_PATTERN } : {}),
      ...(env.TRELLIS_USER_RESOURCE_WHITELIST_PATTERN ? { userResourceWhitelistPattern: env.TRELLIS_USER_RESOURCE_WHITELIST_PATTERN } : {}),
      ...(env.TRELLIS_GROUP_RESOURCE_WHITELIST_PATTERN ? { groupResourceWhitelistPattern: env.TRELLIS_GROUP_RESOURCE_WHITELIST_PATTERN } : {}),
      ...(env.TRELLIS_TENANT_RESOURCE_WHITELIST_PATTERN ? { tenantResourceWhitelistPattern: env.TRELLIS_TENANT_RESOURCE_WHITELIST_PATTERN } : {}),
    },
  };
}

// `npm start` runs this workspace in its own folder; relative paths mean the folder npm was invoked from.
const invokedFrom = (env: NodeJS.ProcessEnv) => env.INIT_CWD ?? process.cwd();

/** `HH:mm-HH:mm`: the daily window in which the history cleanup job runs by itself. */
function historyCleanupWindow(value: string | undefined): { historyCleanup?: { batchWindowStartTime: string; batchWindowEndTime: string } } {
  if (value === undefined || value === '') return {};
  const match = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(value);
  if (!match) throw new Error(`TRELLIS_HISTORY_CLEANUP_WINDOW must look like 22:00-06:00, got '${value}'`);
  return { historyCleanup: { batchWindowStartTime: match[1]!, batchWindowEndTime: match[2]! } };
}

/** A whole-number setting that may be left out (unset or empty: undefined); otherwise from `min` to `max`. */
function optionalWholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number, what: string): number | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max) throw new Error(`${name} must be ${what}, got '${value}'`);
  return number;
}

function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  throw new Error(`${name} must be true or false, got '${value}'`);
}
