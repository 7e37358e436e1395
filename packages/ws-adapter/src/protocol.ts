import type { EngineEvents } from '@trellis/core';

/** Version of the message format; a client can refuse a server that speaks another. */
export const PROTOCOL_VERSION = 1;

/** The engine events a client may subscribe to (batch progress joins them with batches). */
export const STREAMED_EVENTS = ['deployment.created', 'deployment.deleted'] as const satisfies ReadonlyArray<keyof EngineEvents>;
export type StreamedEvent = (typeof STREAMED_EVENTS)[number];

/** Server → client. */
export type ServerMessage =
  | { type: 'hello'; protocol: number; events: readonly StreamedEvent[] }
  | { type: 'event'; event: StreamedEvent; payload: EngineEvents[StreamedEvent] }
  | { type: 'error'; message: string };

/** Client → server: which events to receive (none until the first subscribe). */
export interface SubscribeMessage {
  type: 'subscribe';
  events: StreamedEvent[];
}

/** Reads a client message; null when it is not a valid subscribe. */
export function parseClientMessage(data: string): SubscribeMessage | null {
  try {
    const message = JSON.parse(data) as Partial<SubscribeMessage>;
    if (message.type !== 'subscribe' || !Array.isArray(message.events)) return null;
    if (!message.events.every((event) => (STREAMED_EVENTS as readonly string[]).includes(event))) return null;
    return { type: 'subscribe', events: message.events };
  } catch {
    return null;
  }
}
