import type { Clock } from './clock.js';
import type { IdGenerator } from './id-generator.js';
import type { Logger, LogLevel } from './logger.js';
import type { StoreConfig } from './persistence/store.js';

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
  /** Authorization checks on every command (off by default, as in Camunda). */
  authorization?: Partial<ResolvedAuthorizationConfig>;
  /** The job executor runs timers and asynchronous work; tests usually drive it by hand. */
  jobExecutor?: Partial<JobExecutorConfig>;
  /**
   * Scripts in models (script tasks, camunda:script) run only when enabled: JavaScript in a
   * node:vm context, which isolates globals but is no security boundary against hostile authors.
   */
  scripting?: Partial<ScriptingConfig>;
  clock?: Clock;
  idGenerator?: IdGenerator;
  logger?: Logger;
  logLevel?: LogLevel;
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

export interface ScriptingConfig {
  enabled: boolean;
  /** A script running longer is stopped and fails. Default 1000 ms. */
  timeoutMs: number;
}

export interface ResolvedAuthorizationConfig {
  enabled: boolean;
  /** Camunda's authorizationCheckRevokes: auto (only when a REVOKE concerns the user), always or never. */
  checkRevokes: 'auto' | 'always' | 'never';
  /** Users who pass every check, besides members of camunda-admin. */
  adminUsers: string[];
  /** Groups whose members pass every check; camunda-admin always is one. */
  adminGroups: string[];
}

export interface ResolvedEngineConfig {
  store: StoreConfig;
  authorization: ResolvedAuthorizationConfig;
  jobExecutor: JobExecutorConfig;
  scripting: ScriptingConfig;
  engineName: string;
  historyTimeToLive: number | null;
  enforceHistoryTimeToLive: boolean;
}

/** Fills the defaults and validates what the host gave. */
export function resolveConfig(config: EngineConfig): ResolvedEngineConfig {
  const historyTimeToLive = config.historyTimeToLive === undefined ? 180 : config.historyTimeToLive;
  if (historyTimeToLive !== null && (!Number.isInteger(historyTimeToLive) || historyTimeToLive < 0)) {
    throw new Error(`historyTimeToLive must be a whole number of days >= 0, got ${historyTimeToLive}`);
  }
  return {
    store: config.store ?? { type: 'sqlite', filename: ':memory:' },
    authorization: {
      enabled: config.authorization?.enabled ?? false,
      checkRevokes: config.authorization?.checkRevokes ?? 'auto',
      adminUsers: config.authorization?.adminUsers ?? [],
      adminGroups: config.authorization?.adminGroups ?? [],
    },
    jobExecutor: {
      activate: config.jobExecutor?.activate ?? true,
      waitTimeMs: config.jobExecutor?.waitTimeMs ?? 5000,
      lockTimeMs: config.jobExecutor?.lockTimeMs ?? 5 * 60 * 1000,
      maxJobsPerAcquisition: config.jobExecutor?.maxJobsPerAcquisition ?? 3,
    },
    scripting: { enabled: config.scripting?.enabled ?? false, timeoutMs: config.scripting?.timeoutMs ?? 1000 },
    engineName: config.engineName ?? 'default',
    historyTimeToLive,
    enforceHistoryTimeToLive: config.enforceHistoryTimeToLive ?? true,
  };
}
