import { createEngine } from '@trellis/core';
import { resolve } from 'node:path';
import { createHostApp } from './app.js';

const engine = await createEngine({
  store: { type: 'sqlite', filename: resolve(process.env.TRELLIS_DATA_DIR ?? 'data', 'koa-mount.db') },
});
const port = Number(process.env.PORT ?? 3000);
createHostApp(engine).listen(port, () => {
  console.log(`host app on http://localhost:${port}, Trellis at http://localhost:${port}/camunda/engine-rest`);
});
