import type { ActivityBehavior } from './behavior.js';

/**
 * Joins: the arriving execution waits until one has arrived per incoming flow; then one of them
 * continues and forks along every outgoing flow.
 */
export const parallelGateway: ActivityBehavior = {
  async execute(runner, execution, element) {
    const incoming = runner.model.flowsTo(element.id).length;
    execution.isActive = false;
    runner.tree.touch(execution);
    const arrived = runner.waitingAt(execution, element.id);
    if (arrived.length < Math.max(1, incoming)) return;
    const outgoing = runner.model.flowsFrom(element.id).map((flow) => flow.id);
    runner.join(execution, arrived, outgoing.length === 0);
    runner.leaveVia(execution, outgoing, { evaluateConditions: false });
  },
};
