import type { ActivityBehavior } from './behavior.js';

/** A none end event ends the path of control that reached it. */
export const noneEndEvent: ActivityBehavior = {
  async execute(runner, execution) {
    await runner.endAtEndEvent(execution);
  },
};

/** A terminate end event ends every path of its scope at once (the whole instance at process level). */
export const terminateEndEvent: ActivityBehavior = {
  async execute(runner, execution) {
    runner.endActivityInstance(execution);
    await runner.terminate(execution);
  },
};
