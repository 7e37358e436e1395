export { attachEventStream, type EventStream, type EventStreamOptions } from './event-stream.js';
export { PROTOCOL_VERSION, STREAMED_EVENTS, type ServerMessage, type SubscribeMessage, type StreamedEvent } from './protocol.js';
export { attachBatchProgress, type BatchProgress, type BatchProgressOptions } from './batch-progress.js';
