import { createEngine } from '@trellis/core';
import { resolve } from 'node:path';
import { embeddedDemo } from './embedded-demo.js';

// A host application using the engine's services directly, with no HTTP at all.
const engine = await createEngine({
  store: { type: 'sqlite', filename: resolve(process.env.TRELLIS_DATA_DIR ?? 'data', 'embedded.db') },
});
try {
  const summary = await embeddedDemo(engine);
  console.log(summary);
} finally {
  await engine.close();
}
