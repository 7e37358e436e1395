import type { Authentication, FetchAndLockRequest, LockedExternalTask, ProcessEngine } from '@trellis/core';
import { InvalidRequestException } from './errors/rest-exception.js';

/** Camunda's upper bound for `asyncResponseTimeout`, in milliseconds (30 minutes). */
export const MAX_ASYNC_RESPONSE_TIMEOUT = 1_800_000;
/** Camunda's default queue capacity (`fetch-and-lock-queue-capacity`). */
export const DEFAULT_FETCH_AND_LOCK_QUEUE_CAPACITY = 200;
/**
 * The longest the handler waits between two retries while requests are pending. Tasks created on
 * this engine wake it at once (`externalTask.available`); tasks created by another engine node on a
 * shared PostgreSQL database are only seen by this periodic retry.
 */
export const DEFAULT_FETCH_AND_LOCK_RETRY_INTERVAL = 5_000;

export interface FetchAndLockHandlerOptions {
  queueCapacity?: number;
  retryInterval?: number;
  /**
   * Camunda's `fetch-and-lock-unique-worker-request` (default false): a request that starts waiting
   * cancels the waiting requests of the same worker id, which are answered 503.
   */
  uniqueWorkerRequest?: boolean;
}

/** A waiting request cancelled by a newer one of the same worker (`uniqueWorkerRequest`): HTTP 503, no body. */
export class FetchAndLockCancelled extends Error {
  constructor(workerId: string | null) {
    super(`A newer fetchAndLock request of worker '${workerId}' replaced this one`);
    this.name = 'FetchAndLockCancelled';
  }
}

interface PendingRequest {
  request: FetchAndLockRequest;
  authentication: Authentication | null;
  /** Wall-clock deadline (not the engine clock: it bounds an HTTP wait). */
  deadline: number;
  resolve(tasks: LockedExternalTask[]): void;
  reject(error: unknown): void;
}

/**
 * Long polling for POST /external-task/fetchAndLock (Camunda's FetchAndLockHandlerImpl): one
 * immediate attempt, then a bounded queue that is retried whenever the engine reports an available
 * external task, at least every `retryInterval`, and answered with `[]` at each request's deadline.
 * With `uniqueWorkerRequest`, a worker has at most one waiting request: its newest.
 */
export class FetchAndLockHandler {
  private readonly pending = new Set<PendingRequest>();
  private readonly capacity: number;
  private readonly retryInterval: number;
  private readonly uniqueWorkerRequest: boolean;
  private timer: NodeJS.Timeout | null = null;
  private running = false;
  private rerun = false;
  private closed = false;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly engine: ProcessEngine,
    options: FetchAndLockHandlerOptions = {},
  ) {
    this.capacity = options.queueCapacity ?? DEFAULT_FETCH_AND_LOCK_QUEUE_CAPACITY;
    this.retryInterval = options.retryInterval ?? DEFAULT_FETCH_AND_LOCK_RETRY_INTERVAL;
    this.uniqueWorkerRequest = options.uniqueWorkerRequest ?? false;
    this.unsubscribe = [
      engine.events.on('externalTask.available', () => this.wake()),
      engine.events.on('engine.closing', () => this.close()),
    ];
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Requests waiting for tasks now. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Fetches at once; without a timeout (or with tasks found) that is the answer. Otherwise waits in
   * the queue until tasks are locked for it or the timeout passes. `onAbandon` lets the caller
   * report a client that went away, which frees its place in the queue.
   */
  async fetchAndLock(
    request: FetchAndLockRequest,
    asyncResponseTimeout: number | null,
    authentication: Authentication | null,
    onAbandon?: (abandon: () => void) => void,
  ): Promise<LockedExternalTask[]> {
    if (this.closed) throw shutdownError();
    const tasks = await this.fetch(request, authentication);
    if (tasks.length > 0 || asyncResponseTimeout === null) return tasks;
    // Camunda's removeDuplicates: only requests that wait are replaced, and only by one that waits too.
    if (this.uniqueWorkerRequest) {
      for (const entry of this.pending) {
        if (entry.request.workerId !== request.workerId) continue;
        this.pending.delete(entry);
        entry.reject(new FetchAndLockCancelled(request.workerId));
      }
    }
    if (this.pending.size >= this.capacity) {
      throw new InvalidRequestException(500, 'At the moment the server has to handle too many requests at the same time. Please try again later.');
    }
    return new Promise<LockedExternalTask[]>((resolve, reject) => {
      const entry: PendingRequest = { request, authentication, deadline: Date.now() + asyncResponseTimeout, resolve, reject };
      this.pending.add(entry);
      onAbandon?.(() => {
        if (this.pending.delete(entry)) resolve([]);
      });
      this.schedule();
    });
  }

  /** Answers every pending request with Camunda's shutdown error and stops retrying. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe.forEach((unsubscribe) => unsubscribe());
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const entry of this.pending) entry.reject(shutdownError());
    this.pending.clear();
  }

  private fetch(request: FetchAndLockRequest, authentication: Authentication | null): Promise<LockedExternalTask[]> {
    return this.engine.runAs(authentication, () => this.engine.externalTask.fetchAndLock(request));
  }

  /**
   * Unlocks tasks locked for a request that can no longer be answered (its client left, or a newer
   * request of its worker replaced it), so that waiting requests get them now. Best effort: a task
   * left locked comes back when its lock expires.
   */
  unlockUndelivered(tasks: LockedExternalTask[], authentication: Authentication | null): void {
    if (tasks.length === 0) return;
    this.engine.runAs(authentication, () => this.engine.externalTask.unlockUndelivered(tasks)).catch(() => undefined);
  }

  /** An external task became available: retry the pending requests now. */
  private wake(): void {
    if (this.pending.size === 0 || this.closed) return;
    void this.process();
  }

  /** Sleeps until the earliest deadline, but never longer than the retry interval. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.closed || this.pending.size === 0) return;
    const earliest = Math.min(...[...this.pending].map((entry) => entry.deadline));
    const delay = Math.max(0, Math.min(this.retryInterval, earliest - Date.now()));
    this.timer = setTimeout(() => void this.process(), delay);
    this.timer.unref?.();
  }

  /** One pass over the queue: answer what found tasks, failed, or timed out; keep the rest. */
  private async process(): Promise<void> {
    if (this.running) {
      this.rerun = true;
      return;
    }
    this.running = true;
    try {
      do {
        this.rerun = false;
        for (const entry of [...this.pending]) {
          if (this.closed) return;
          if (!this.pending.has(entry)) continue;
          const timedOut = Date.now() >= entry.deadline;
          try {
            const tasks = timedOut ? [] : await this.fetch(entry.request, entry.authentication);
            // The client may have left, or a newer request of its worker replaced it, while the fetch
            // ran: what it locked goes back to the queue (Camunda's single handler thread cannot race here).
            if (!this.pending.has(entry)) {
              this.unlockUndelivered(tasks, entry.authentication);
              continue;
            }
            if (tasks.length > 0 || timedOut) {
              this.pending.delete(entry);
              entry.resolve(tasks);
            }
          } catch (error) {
            if (this.pending.delete(entry)) entry.reject(error);
          }
        }
      } while (this.rerun && !this.closed);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}

const shutdownError = () => new InvalidRequestException(500, 'Request rejected due to shutdown of application server.', 'RestException');
