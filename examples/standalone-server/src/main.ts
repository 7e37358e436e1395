import { serverConfigFromEnv } from './server-config.js';
import { startServer } from './server.js';

const config = serverConfigFromEnv();
const running = await startServer(config);
console.log(`Trellis REST API ready at ${running.url} (${running.engine.databaseDialect})`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}
