import { FixedClock } from '../clock.js';
import type { EngineConfig } from '../config.js';
import { createEngine } from '../create-engine.js';
import type { ProcessEngine } from '../engine.js';

/** An engine on in-memory SQLite (or the given store) with a clock the test moves and a job executor it drives (runDueJobs). */
export async function createTestEngine(
  options: Partial<EngineConfig> & { clock?: FixedClock } = {},
): Promise<ProcessEngine & { clock: FixedClock }> {
  const clock = options.clock ?? new FixedClock(new Date('2026-01-15T10:00:00.000Z'));
  const engine = await createEngine({
    logLevel: 'warn',
    ...options,
    jobExecutor: { activate: false, ...options.jobExecutor },
    clock,
  });
  return engine as ProcessEngine & { clock: FixedClock };
}
