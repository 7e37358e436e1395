import type { ActivityBehavior } from './behavior.js';

/** Start events, tasks without work, manual tasks and none throw events: arrive and leave. */
export const passThrough: ActivityBehavior = {
  async execute(runner, execution) {
    runner.leave(execution);
  },
};
