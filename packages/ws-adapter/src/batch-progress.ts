import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Authentication, BatchStatistics, ProcessEngine } from '@trellis/core';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * Live batch progress over WebSocket. Protocol (JSON text frames, version 1):
 * - server → client on connect: `{"type":"hello","protocol":1}`
 * - client → server: `{"type":"subscribe"}` (every batch the client may read) or
 *   `{"type":"subscribe","batchId":"…"}` (one batch); `{"type":"unsubscribe"}`.
 * - server → client: `{"type":"snapshot","batches":[…]}` right after a subscribe, then
 *   `{"type":"batch","event":"created"|"progress"|"suspended"|"activated"|"failed-job"|"completed"|"deleted","batch":{…}}`
 *   for each change, at most one per batch per `coalesceMs`. `batch` carries the BatchStatisticsDto
 *   figures (id, type, totalJobs, jobsCreated, remainingJobs, completedJobs, failedJobs, suspended…);
 *   for completed and deleted only what was last known.
 * Clients see only batches they may READ; a client whose unsent data grows past `maxBufferedBytes`
 * is dropped, and pings every `heartbeatMs` close connections that stopped answering.
 */
export interface BatchProgressOptions {
  /** Default `/engine-rest/batch-progress`. */
  path?: string;
  /** Who connects, from the upgrade request (e.g. HTTP Basic); null: unauthenticated. */
  authenticate?: (request: IncomingMessage) => Promise<Authentication | null>;
  coalesceMs?: number;
  heartbeatMs?: number;
  maxBufferedBytes?: number;
  /**
   * How long a batch found gone waits for the event saying whether it completed or was deleted
   * (relayed from another node, it may come a little later); default 2,000 ms.
   */
  endGraceMs?: number;
}

export interface BatchProgress {
  close(): Promise<void>;
}

interface Client {
  authentication: Authentication | null;
  /** null: not subscribed; '*': every batch; else one batch id. */
  subscription: string | null;
  alive: boolean;
  /** Batches this client was told about. */
  seen: Set<string>;
}

export function attachBatchProgress(server: Server, engine: ProcessEngine, options: BatchProgressOptions = {}): BatchProgress {
  const { coalesceMs = 250, heartbeatMs = 30_000, maxBufferedBytes = 1 << 20, endGraceMs = 2_000 } = options;
  const wss = new WebSocketServer({ noServer: true });
  const path = options.path ?? '/engine-rest/batch-progress';
  const clients = new Map<WebSocket, Client>();
  const known = new Map<string, BatchStatistics>();
  /** Batches changed since the last flush, with how they ended when they did. */
  const pending = new Map<string, 'completed' | 'deleted' | undefined>();
  let flushTimer: NodeJS.Timeout | null = null;
  let flushing: Promise<void> = Promise.resolve();

  const onUpgrade = async (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return;
    let authentication: Authentication | null = null;
    try {
      authentication = options.authenticate ? await options.authenticate(request) : null;
    } catch {
      socket.write('HTTP/1.1 401 Unauthorized\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, authentication));
  };
  server.on('upgrade', onUpgrade);

  wss.on('connection', (socket: WebSocket, authentication: Authentication | null) => {
    clients.set(socket, { authentication, subscription: null, alive: true, seen: new Set() });
    send(socket, { type: 'hello', protocol: 1 });
    socket.on('pong', () => {
      const client = clients.get(socket);
      if (client) client.alive = true;
    });
    socket.on('message', (data) => void receive(socket, data.toString()));
    socket.on('close', () => clients.delete(socket));
  });

  async function receive(socket: WebSocket, text: string): Promise<void> {
    const client = clients.get(socket);
    let message: { type?: unknown; batchId?: unknown };
    try {
      message = JSON.parse(text);
    } catch {
      message = {};
    }
    if (!client) return;
    if (message.type === 'unsubscribe') {
      client.subscription = null;
      return;
    }
    if (message.type !== 'subscribe' || (message.batchId !== undefined && typeof message.batchId !== 'string')) {
      send(socket, { type: 'error', message: 'expected {"type":"subscribe"}, {"type":"subscribe","batchId":"…"} or {"type":"unsubscribe"}' });
      return;
    }
    client.subscription = (message.batchId as string | undefined) ?? '*';
    const batches = await readable(client, client.subscription === '*' ? {} : { batchId: client.subscription });
    for (const batch of batches) {
      known.set(batch.id, batch);
      client.seen.add(batch.id);
    }
    send(socket, { type: 'snapshot', batches: batches.map(toDto) });
  }

  /** What the client may read of these batches, as the client. */
  function readable(client: Client, query: { batchId?: string }): Promise<BatchStatistics[]> {
    return engine.runAs(client.authentication, () => engine.batch.statistics(query)).catch(() => []);
  }

  const changed = (batchId: string, ended: 'completed' | 'deleted' | undefined) => {
    pending.set(batchId, ended ?? pending.get(batchId));
    flushTimer ??= setTimeout(() => {
      // one flush at a time, so a client sees each batch's figures in order
      flushing = flushing.then(flush, flush);
    }, coalesceMs);
  };
  const unsubscribe = engine.events.on('batch.changed', ({ batchId, ended }) => changed(batchId, ended));

  /** Batches found gone without word of how they ended, waiting for that word. */
  const endTimers = new Map<string, NodeJS.Timeout>();
  function awaitEnd(id: string): void {
    if (endTimers.has(id)) return;
    const timer = setTimeout(() => {
      endTimers.delete(id);
      if (known.has(id)) changed(id, 'deleted');
    }, endGraceMs);
    timer.unref();
    endTimers.set(id, timer);
  }

  async function flush(): Promise<void> {
    flushTimer = null;
    const changes = [...pending];
    pending.clear();
    for (const [id, ended] of changes) {
      const [current] = ended ? [] : await engine.batch.statistics({ batchId: id }).catch(() => []);
      const previous = known.get(id);
      if (!current && !ended && previous) {
        // Gone, but how? The completion or deletion event (relayed from another node, maybe) says so
        // and follows closely; only when it does not come is the batch reported deleted.
        awaitEnd(id);
        continue;
      }
      const event = current ? eventOf(previous, current) : previous ? (ended ?? 'deleted') : null;
      if (current) known.set(id, current);
      else known.delete(id);
      const batch = current ?? previous;
      if (!event || !batch) continue;
      for (const [socket, client] of clients) {
        if (client.subscription !== '*' && client.subscription !== id) continue;
        // an ended batch goes to those who saw it; a live one to those who may read it now
        if (current ? (await readable(client, { batchId: id })).length === 0 : !client.seen.has(id)) continue;
        if (current) client.seen.add(id);
        else client.seen.delete(id);
        if (socket.bufferedAmount > maxBufferedBytes) {
          socket.terminate();
          continue;
        }
        send(socket, { type: 'batch', event, batch: toDto(batch) });
      }
    }
  }

  const heartbeat = setInterval(() => {
    for (const [socket, client] of clients) {
      if (!client.alive) {
        socket.terminate();
        continue;
      }
      client.alive = false;
      socket.ping();
    }
  }, heartbeatMs);
  heartbeat.unref();

  return {
    async close() {
      unsubscribe();
      clearInterval(heartbeat);
      if (flushTimer) clearTimeout(flushTimer);
      for (const timer of endTimers.values()) clearTimeout(timer);
      await flushing;
      server.off('upgrade', onUpgrade);
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function eventOf(previous: BatchStatistics | undefined, current: BatchStatistics): string {
  if (!previous) return 'created';
  if (current.suspended !== previous.suspended) return current.suspended ? 'suspended' : 'activated';
  if (current.failedJobs > previous.failedJobs) return 'failed-job';
  return 'progress';
}

function toDto(batch: BatchStatistics) {
  return {
    id: batch.id,
    type: batch.type,
    totalJobs: batch.totalJobs,
    jobsCreated: batch.jobsCreated,
    remainingJobs: batch.remainingJobs,
    completedJobs: batch.completedJobs,
    failedJobs: batch.failedJobs,
    suspended: batch.suspended,
    tenantId: batch.tenantId,
    createUserId: batch.createUserId,
    startTime: batch.startTime.toISOString(),
    executionStartTime: batch.executionStartTime?.toISOString() ?? null,
  };
}

function send(socket: WebSocket, message: unknown): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
