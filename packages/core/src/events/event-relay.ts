import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Logger } from '../logger.js';
import type { EngineEvents, EventBus } from './event-bus.js';

/** The events other nodes must hear about: work they may pick up (a long poll, a job executor), batch progress for watchers. */
const RELAYED = ['externalTask.available', 'job.created', 'batch.changed'] as const satisfies ReadonlyArray<keyof EngineEvents>;
type Relayed = (typeof RELAYED)[number];

interface Notification {
  origin: string;
  event: Relayed;
  payload: Record<string, unknown>;
}

/**
 * Carries committed engine events between engine nodes sharing one PostgreSQL database: each
 * node NOTIFYs what it emitted and LISTENs for the others (channel per schema), so a long poll or
 * a job executor on any node wakes when another node created work. SQLite has one node: no relay.
 */
export class EventRelay {
  private readonly origin = randomUUID();
  private readonly channel: string;
  private readonly unsubscribers: Array<() => void> = [];
  private listener: pg.Client | null = null;
  private replaying = false;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    schema: string,
    private readonly events: EventBus<EngineEvents>,
    private readonly notify: (channel: string, payload: string) => Promise<void>,
    private readonly logger: Logger,
  ) {
    this.channel = `trellis_events_${schema}`;
  }

  async start(): Promise<void> {
    const listener = new pg.Client({ connectionString: this.connectionString });
    listener.on('notification', (message) => this.receive(message.payload));
    listener.on('error', (error) => this.logger.warn(`event relay connection failed: ${error.message}`));
    await listener.connect();
    await listener.query(`LISTEN ${this.channel}`);
    this.listener = listener;
    for (const event of RELAYED) {
      this.unsubscribers.push(this.events.on(event, (payload) => this.send(event, payload as unknown as Record<string, unknown>)));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const unsubscribe of this.unsubscribers.splice(0)) unsubscribe();
    await this.listener?.end().catch(() => {});
    this.listener = null;
  }

  private send(event: Relayed, payload: Record<string, unknown>): void {
    if (this.replaying || this.closed) return;
    const message: Notification = { origin: this.origin, event, payload };
    this.notify(this.channel, JSON.stringify(message)).catch((error) => this.logger.warn(`event relay could not notify: ${(error as Error).message}`));
  }

  private receive(text: string | undefined): void {
    if (!text) return;
    const message = JSON.parse(text) as Notification;
    if (message.origin === this.origin || !RELAYED.includes(message.event)) return;
    const payload = { ...message.payload };
    if (typeof payload.dueDate === 'string') payload.dueDate = new Date(payload.dueDate);
    this.replaying = true;
    try {
      this.events.emit(message.event, payload as never);
    } finally {
      this.replaying = false;
    }
  }
}
