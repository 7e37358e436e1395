import type { ActivityBehavior } from './behavior.js';

/** Receive tasks and external service tasks wait until signalled, then leave. */
export const waitState: ActivityBehavior = {
  async execute() {},
  async signal(runner, execution) {
    runner.leave(execution);
  },
};
