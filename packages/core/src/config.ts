import { networkInterfaces } from 'node:os';
import type { Clock } from './clock.js';
import { resolveHistoryLevel, type HistoryLevel } from './history/history-level.js';
import { parseBatchTimeToLiveMap, parseTimeToLive, type TimeToLiveSetting } from './history/time-to-live-setting.js';
import type { IdGenerator } from './id-generator.js';
import type { Logger, LogLevel } from './logger.js';
import type { StoreConfig } from './persistence/store.js';
import { parseWindowTime, WEEKDAYS, type BatchWindowTimes, type Weekday } from './history/batch-window.js';
import { DEFAULT_RESOURCE_ID_PATTERN, resourceIdPatterns, type ResourceIdPatterns } from './services/identity/identity-messages.js';
import { DEFAULT_PASSWORD_POLICY, type PasswordPolicy } from './services/identity/password-policy.js';

/** What a host passes to createEngine(); everything but the store has a default. */
export interface EngineConfig {
  /** Where state lives. Default: in-memory SQLite (nothing survives the process). */
  store?: StoreConfig;
  /** Engine name, as listed by GET /engine. */
  engineName?: string;
  /**
   * Days of history kept for a definition that declares no camunda:historyTimeToLive
   * (Camunda Run's default is 180). null: no default.
   */
  historyTimeToLive?: number | null;
  /** Reject definitions without a history time to live (Camunda's default since 7.20). */
  enforceHistoryTimeToLive?: boolean;
  /**
   * The ids users, groups and tenants may have: a regular expression matching the whole id (Camunda's
   * generalResourceWhitelistPattern, default `[a-zA-Z0-9]+|camunda-admin`), and per kind one that
   * replaces it when set (userResourceWhitelistPattern, groupResourceWhitelistPattern, tenantResourceWhitelistPattern).
   */
  generalResourceWhitelistPattern?: string;
  userResourceWhitelistPattern?: string | null;
  groupResourceWhitelistPattern?: string | null;
  tenantResourceWhitelistPattern?: string | null;
  /**
   * Deploy a `.form` resource that is no JSON object without registering it as a Camunda Form
   * definition, instead of failing the deployment (Camunda's disableStrictCamundaFormParsing; default false).
   */
  disableStrictCamundaFormParsing?: boolean;
  /** Days (or `P<n>D`) historic batches of every type are kept after they end; default null (kept for ever). */
  batchOperationHistoryTimeToLive?: TimeToLiveSetting | null;
  /** Per batch type (e.g. `instance-migration`), overriding batchOperationHistoryTimeToLive. */
  batchOperationsForHistoryCleanup?: Record<string, TimeToLiveSetting>;
  /**
   * Days (or `P<n>D`) the task meter log (GET /metrics/task-worker's rows) is kept before history
   * cleanup removes it; default null (kept until DELETE /metrics/task-worker). Camunda's taskMetricsTimeToLive.
   */
  taskMetricsTimeToLive?: TimeToLiveSetting | null;
  /** What the engine writes to history: none, activity, audit or full (default full, as Camunda Run ships). */
  historyLevel?: HistoryLevel;
  /** History cleanup: removal-time strategy, cleanup strategy and the batch window (Camunda's names and defaults). */
  historyCleanup?: Partial<HistoryCleanupConfig>;
  /** Authorization checks on every command (off by default, as in Camunda). */
  authorization?: Partial<ResolvedAuthorizationConfig>;
  /**
   * Camunda's tenant check (on by default): an authenticated user who is no administrator sees and
   * changes only what belongs to no tenant or to one of its tenants.
   */
  tenantCheckEnabled?: boolean;
  /** Locking users out after failed password checks (Camunda's login settings and defaults). */
  login?: Partial<LoginConfig>;
  /** New passwords must pass the password policy (off by default, as in Camunda). */
  enablePasswordPolicy?: boolean;
  /**
   * The password policy enablePasswordPolicy turns on (Camunda's passwordPolicy): rules, each with
   * its placeholder, parameters and check; Camunda's default policy when not given.
   */
  passwordPolicy?: PasswordPolicy;
  /** The job executor runs timers and asynchronous work; tests usually drive it by hand. */
  jobExecutor?: Partial<JobExecutorConfig>;
  /**
   * Camunda's failedJobRetryTimeCycle: the retry cycle (`R5/PT5M`, `PT1M,PT10M`, …) of the jobs of
   * activities that declare none themselves; default null (three retries at once).
   */
  failedJobRetryTimeCycle?: string | null;
  /** Camunda's reevaluateTimeCycleWhenDue: a timer cycle given as an expression is evaluated again at each firing (default false). */
  reevaluateTimeCycleWhenDue?: boolean;
  /**
   * Camunda's skipOutputMappingOnCanceledActivities: an activity cancelled (by a boundary event, a
   * modification, a deletion, a migration) runs no output mappings, which may read variables a failed
   * activity never set (default false).
   */
  skipOutputMappingOnCanceledActivities?: boolean;
  /**
   * Scripts in models (script tasks, camunda:script) run only when enabled: JavaScript in a
   * node:vm context, which isolates globals but is no security boundary against hostile authors.
   */
  scripting?: Partial<ScriptingConfig>;
  /**
   * Seconds between two reports of the engine metrics to the meter log (Camunda's 900 by default);
   * 0 reports only on close and on engine.metrics.flush().
   */
  metricsReportingInterval?: number;
  /**
   * This engine's name among the nodes sharing a database: the reporter of its metrics and the
   * hostname of its job log. Default: Camunda's `<ip>$<engineName>` (SimpleIpBasedProvider).
   */
  hostname?: string;
  clock?: Clock;
  idGenerator?: IdGenerator;
  logger?: Logger;
  logLevel?: LogLevel;
}

/**
 * Camunda's lockout: every failed password check locks the user for loginDelayBase ×
 * loginDelayFactor^(failures − 1) seconds (at most loginDelayMaxTime), and after loginMaxAttempts
 * failures until an administrator unlocks it (POST /user/{id}/unlock).
 */
export interface LoginConfig {
  /** Default 10. */
  loginMaxAttempts: number;
  /** Default 2. */
  loginDelayFactor: number;
  /** Seconds; default 3. */
  loginDelayBase: number;
  /** Seconds; default 60. */
  loginDelayMaxTime: number;
}

export interface JobExecutorConfig {
  /** Start acquiring jobs when the engine starts. Default true. */
  activate: boolean;
  /** Pause between acquisition cycles when there is nothing to do. Default 5000 ms. */
  waitTimeMs: number;
  /** How long an acquired job stays locked to this engine. Default 5 minutes (Camunda's). */
  lockTimeMs: number;
  /** Jobs locked per acquisition. Default 3 (Camunda's). */
  maxJobsPerAcquisition: number;
}

export interface HistoryCleanupConfig {
  /**
   * Camunda's historyCleanupEnabled (default true). Off: POST /history/cleanup is refused and the
   * job executor leaves existing cleanup jobs alone; removal times are still written.
   */
  enabled: boolean;
  /** When a historic instance gets its removal time: at the root instance's end (default), at its start, or never. */
  removalTimeStrategy: 'end' | 'start' | 'none';
  /** removalTimeBased (default): cleanup deletes what has a removal time in the past; endTimeBased: end time + time to live. */
  strategy: 'removalTimeBased' | 'endTimeBased';
  /** Daily window "HH:mm" (local time) in which the cleanup job runs by itself; null start: only on demand. */
  batchWindowStartTime: string | null;
  batchWindowEndTime: string | null;
  /**
   * Windows of single weekdays (Camunda's mondayHistoryCleanupBatchWindowStartTime / …EndTime and so
   * on), each `{ startTime, endTime }` "HH:mm"; a weekday's own window replaces the daily one that day.
   */
  batchWindows: Partial<Record<Weekday, BatchWindowTimes>>;
  /** Root instances (and their history) removed per cleanup job run; Camunda's default 500, at most 500. */
  batchSize: number;
  /** Cleanup jobs working side by side (1..8); Camunda's default 1. */
  degreeOfParallelism: number;
  /**
   * Camunda's removalTimeUpdateChunkSize: rows per history table a set-removal-time job with
   * `updateInChunks` updates per run, unless the request names its own `updateChunkSize`. Default
   * 500, at most 500.
   */
  removalTimeUpdateChunkSize: number;
}

export interface ScriptingConfig {
  enabled: boolean;
  /** A script running longer is stopped and fails. Default 1000 ms. */
  timeoutMs: number;
}

export interface ResolvedAuthorizationConfig {
  enabled: boolean;
  /** Camunda's authorizationCheckRevokes: auto (only when a REVOKE concerns the user), always or never. */
  checkRevokes: 'auto' | 'always' | 'never';
  /** Administrators besides members of camunda-admin: they pass the tenant check and the admin-only commands; other checks need their grants (Camunda's adminUsers). */
  adminUsers: string[];
  /** Groups whose members are administrators as adminUsers are; camunda-admin always is one (Camunda's adminGroups). */
  adminGroups: string[];
  /**
   * Camunda's enforceSpecificVariablePermission (off by default): reading variables then needs the
   * variable permissions — READ_INSTANCE_VARIABLE / READ_TASK_VARIABLE / READ_HISTORY_VARIABLE on the
   * process definition, READ_VARIABLE on a task — instead of READ on what holds them; the default
   * task grants then include READ_VARIABLE.
   */
  enforceSpecificVariablePermission: boolean;
  /**
   * Camunda's enableHistoricInstancePermissions (off by default): history queries then also show
   * what the caller holds READ on as a historic process instance (resource 20) or historic task
   * (resource 19), standalone tasks' history only through such grants; a task's assignee, owner and
   * candidates get READ on its historic task besides the runtime grant.
   */
  enableHistoricInstancePermissions: boolean;
}

export interface ResolvedEngineConfig {
  store: StoreConfig;
  authorization: ResolvedAuthorizationConfig;
  tenantCheckEnabled: boolean;
  login: LoginConfig;
  /** The policy new passwords must pass; null when enablePasswordPolicy is off. */
  passwordPolicy: PasswordPolicy | null;
  jobExecutor: JobExecutorConfig;
  failedJobRetryTimeCycle: string | null;
  reevaluateTimeCycleWhenDue: boolean;
  skipOutputMappingOnCanceledActivities: boolean;
  scripting: ScriptingConfig;
  engineName: string;
  historyTimeToLive: number | null;
  enforceHistoryTimeToLive: boolean;
  disableStrictCamundaFormParsing: boolean;
  /** The id patterns of users, groups and tenants (compiled from the *ResourceWhitelistPattern options). */
  resourceIdPatterns: ResourceIdPatterns;
  /** Days, or null. */
  batchOperationHistoryTimeToLive: number | null;
  /** Days per batch type. */
  batchOperationsForHistoryCleanup: Record<string, number>;
  /** Days, or null. */
  taskMetricsTimeToLive: number | null;
  historyLevel: HistoryLevel;
  historyCleanup: HistoryCleanupConfig;
  metricsReportingInterval: number;
  hostname: string;
}

/** Fills the defaults and validates what the host gave. */
export function resolveConfig(config: EngineConfig): ResolvedEngineConfig {
  const historyTimeToLive = config.historyTimeToLive === undefined ? 180 : config.historyTimeToLive;
  if (historyTimeToLive !== null && (!Number.isInteger(historyTimeToLive) || historyTimeToLive < 0)) {
    throw new Error(`historyTimeToLive must be a whole number of days >= 0, got ${historyTimeToLive}`);
  }
  const metricsReportingInterval = config.metricsReportingInterval ?? 900;
  if (!Number.isInteger(metricsReportingInterval) || metricsReportingInterval < 0) {
    throw new Error(`metricsReportingInterval must be a whole number of seconds >= 0, got ${metricsReportingInterval}`);
  }
  return {
    store: config.store ?? { type: 'sqlite', filename: ':memory:' },
    authorization: {
      enabled: config.authorization?.enabled ?? false,
      checkRevokes: config.authorization?.checkRevokes ?? 'auto',
      adminUsers: config.authorization?.adminUsers ?? [],
      adminGroups: config.authorization?.adminGroups ?? [],
      enforceSpecificVariablePermission: config.authorization?.enforceSpecificVariablePermission ?? false,
      enableHistoricInstancePermissions: config.authorization?.enableHistoricInstancePermissions ?? false,
    },
    tenantCheckEnabled: config.tenantCheckEnabled ?? true,
    login: resolveLogin(config.login ?? {}),
    passwordPolicy: config.enablePasswordPolicy ? (config.passwordPolicy ?? DEFAULT_PASSWORD_POLICY) : null,
    jobExecutor: {
      activate: config.jobExecutor?.activate ?? true,
      waitTimeMs: config.jobExecutor?.waitTimeMs ?? 5000,
      lockTimeMs: config.jobExecutor?.lockTimeMs ?? 5 * 60 * 1000,
      maxJobsPerAcquisition: config.jobExecutor?.maxJobsPerAcquisition ?? 3,
    },
    failedJobRetryTimeCycle: config.failedJobRetryTimeCycle?.trim() || null,
    reevaluateTimeCycleWhenDue: config.reevaluateTimeCycleWhenDue ?? false,
    skipOutputMappingOnCanceledActivities: config.skipOutputMappingOnCanceledActivities ?? false,
    scripting: { enabled: config.scripting?.enabled ?? false, timeoutMs: config.scripting?.timeoutMs ?? 1000 },
    engineName: config.engineName ?? 'default',
    historyTimeToLive,
    enforceHistoryTimeToLive: config.enforceHistoryTimeToLive ?? true,
    disableStrictCamundaFormParsing: config.disableStrictCamundaFormParsing ?? false,
    resourceIdPatterns: resourceIdPatterns({
      general: config.generalResourceWhitelistPattern || DEFAULT_RESOURCE_ID_PATTERN,
      user: config.userResourceWhitelistPattern ?? null,
      group: config.groupResourceWhitelistPattern ?? null,
      tenant: config.tenantResourceWhitelistPattern ?? null,
    }),
    batchOperationHistoryTimeToLive: parseTimeToLive('batchOperationHistoryTimeToLive', config.batchOperationHistoryTimeToLive),
    batchOperationsForHistoryCleanup: parseBatchTimeToLiveMap(config.batchOperationsForHistoryCleanup),
    taskMetricsTimeToLive: parseTimeToLive('taskMetricsTimeToLive', config.taskMetricsTimeToLive),
    historyLevel: resolveHistoryLevel(config.historyLevel),
    historyCleanup: resolveHistoryCleanup(config.historyCleanup ?? {}),
    metricsReportingInterval,
    hostname: config.hostname ?? `${localAddress()}$${config.engineName ?? 'default'}`,
  };
}

/** This machine's address as Camunda's SimpleIpBasedProvider finds it: its first external IPv4, else the loopback. */
function localAddress(): string {
  for (const addresses of Object.values(networkInterfaces())) {
    const external = addresses?.find((address) => address.family === 'IPv4' && !address.internal);
    if (external) return external.address;
  }
  return '127.0.0.1';
}

function resolveLogin(given: Partial<LoginConfig>): LoginConfig {
  const login: LoginConfig = {
    loginMaxAttempts: given.loginMaxAttempts ?? 10,
    loginDelayFactor: given.loginDelayFactor ?? 2,
    loginDelayBase: given.loginDelayBase ?? 3,
    loginDelayMaxTime: given.loginDelayMaxTime ?? 60,
  };
  for (const [name, value] of Object.entries(login)) {
    if (!Number.isInteger(value) || value < 0) throw new Error(`login.${name} must be a whole number >= 0, got ${value}`);
  }
  return login;
}

/** Camunda's history cleanup settings, checked as its engine configuration checks them. */
function resolveHistoryCleanup(given: Partial<HistoryCleanupConfig>): HistoryCleanupConfig {
  const removalTimeStrategy = given.removalTimeStrategy ?? 'end';
  if (!['end', 'start', 'none'].includes(removalTimeStrategy)) throw new Error(`historyCleanup.removalTimeStrategy must be end, start or none, got '${removalTimeStrategy}'`);
  const strategy = given.strategy ?? 'removalTimeBased';
  if (!['removalTimeBased', 'endTimeBased'].includes(strategy)) throw new Error(`historyCleanup.strategy must be removalTimeBased or endTimeBased, got '${strategy}'`);
  if (strategy === 'removalTimeBased' && removalTimeStrategy === 'none') {
    throw new Error('historyCleanup.removalTimeStrategy none leaves nothing for the removalTimeBased cleanup strategy');
  }
  const batchWindowStartTime = parseWindowTime('batchWindowStartTime', given.batchWindowStartTime);
  const batchWindowEndTime = parseWindowTime('batchWindowEndTime', given.batchWindowEndTime);
  if ((batchWindowStartTime === null) !== (batchWindowEndTime === null)) throw new Error('historyCleanup needs both batchWindowStartTime and batchWindowEndTime, or neither');
  const batchWindows: Partial<Record<Weekday, BatchWindowTimes>> = {};
  for (const [day, times] of Object.entries(given.batchWindows ?? {})) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) throw new Error(`historyCleanup.batchWindows: '${day}' is no weekday (monday … sunday)`);
    const startTime = parseWindowTime(`batchWindows.${day}.startTime`, times?.startTime);
    const endTime = parseWindowTime(`batchWindows.${day}.endTime`, times?.endTime);
    if (startTime === null || endTime === null) throw new Error(`historyCleanup.batchWindows.${day} needs startTime and endTime`);
    batchWindows[day as Weekday] = { startTime, endTime };
  }
  const batchSize = given.batchSize ?? 500;
  if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 500) throw new Error(`historyCleanup.batchSize must be a whole number from 1 to 500, got ${batchSize}`);
  const degreeOfParallelism = given.degreeOfParallelism ?? 1;
  if (!Number.isInteger(degreeOfParallelism) || degreeOfParallelism < 1 || degreeOfParallelism > 8) {
    throw new Error(`historyCleanup.degreeOfParallelism must be a whole number from 1 to 8, got ${degreeOfParallelism}`);
  }
  const removalTimeUpdateChunkSize = given.removalTimeUpdateChunkSize ?? 500;
  if (!Number.isInteger(removalTimeUpdateChunkSize) || removalTimeUpdateChunkSize < 1 || removalTimeUpdateChunkSize > 500) {
    throw new Error(`historyCleanup.removalTimeUpdateChunkSize must be a whole number from 1 to 500, got ${removalTimeUpdateChunkSize}`);
  }
  return { enabled: given.enabled ?? true, removalTimeStrategy, strategy, batchWindowStartTime, batchWindowEndTime, batchWindows, batchSize, degreeOfParallelism, removalTimeUpdateChunkSize };
}
