import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ProcessEngine } from '@trellis/core';
import { WebSocketServer, type WebSocket } from 'ws';
import { parseClientMessage, PROTOCOL_VERSION, STREAMED_EVENTS, type ServerMessage, type StreamedEvent } from './protocol.js';

export interface EventStreamOptions {
  /** The upgrade path, e.g. `/engine-rest/events` (the default). */
  path?: string;
}

export interface EventStream {
  /** Disconnects every client and stops listening to the engine. */
  close(): Promise<void>;
}

/**
 * Streams committed engine events to WebSocket clients on `path` of an existing HTTP server.
 * Each client says which events it wants; the stream only reads engine events, never the store.
 */
export function attachEventStream(server: Server, engine: ProcessEngine, options: EventStreamOptions = {}): EventStream {
  // noServer: several streams (events, batch progress) share one HTTP server, each taking its own path.
  const wss = new WebSocketServer({ noServer: true });
  const path = options.path ?? '/engine-rest/events';
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== path) return;
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit('connection', ws, request));
  };
  server.on('upgrade', onUpgrade);
  const subscriptions = new Map<WebSocket, Set<StreamedEvent>>();

  wss.on('connection', (socket) => {
    subscriptions.set(socket, new Set());
    send(socket, { type: 'hello', protocol: PROTOCOL_VERSION, events: STREAMED_EVENTS });
    socket.on('message', (data) => {
      const message = parseClientMessage(data.toString());
      if (!message) return send(socket, { type: 'error', message: `expected {"type":"subscribe","events":[…]} with events from ${STREAMED_EVENTS.join(', ')}` });
      subscriptions.set(socket, new Set(message.events));
    });
    socket.on('close', () => subscriptions.delete(socket));
  });

  const unsubscribers = STREAMED_EVENTS.map((event) =>
    engine.events.on(event, (payload) => {
      for (const [socket, events] of subscriptions) if (events.has(event)) send(socket, { type: 'event', event, payload });
    }),
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      unsubscribers.forEach((unsubscribe) => unsubscribe());
      for (const socket of wss.clients) socket.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

function send(socket: WebSocket, message: ServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}
