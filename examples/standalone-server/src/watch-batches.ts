// Prints live batch progress: npm run watch-batches -w @trellis/example-standalone-server [-- ws://host:port/engine-rest/batch-progress]
import { WebSocket } from 'ws';

const socket = new WebSocket(process.argv[2] ?? 'ws://localhost:8080/engine-rest/batch-progress');
socket.on('open', () => socket.send(JSON.stringify({ type: 'subscribe' })));
socket.on('message', (data) => {
  const message = JSON.parse(String(data));
  if (message.type === 'batch') console.log(message.event, message.batch.id, `${message.batch.completedJobs}/${message.batch.totalJobs} done, ${message.batch.failedJobs} failed`);
});
