import type { ActivityBehavior } from './behavior.js';

/** A none end event ends the path of control that reached it. */
export const noneEndEvent: ActivityBehavior = {
  async execute(runner, execution) {
    runner.endActivityInstance(execution);
    runner.end(execution);
  },
};

/** A terminate end event ends every path of the process instance at once. */
export const terminateEndEvent: ActivityBehavior = {
  async execute(runner) {
    runner.terminate();
  },
};
