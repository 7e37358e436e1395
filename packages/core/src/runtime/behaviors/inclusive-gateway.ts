import type { ProcessModel } from '../../bpmn/index.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ActivityBehavior } from './behavior.js';

/**
 * Forks along every flow whose condition holds (the default flow when none does); joins once no
 * other path of the same scope can still reach the gateway.
 */
export const inclusiveGateway: ActivityBehavior = {
  async execute(runner, execution, element) {
    execution.isActive = false;
    runner.tree.touch(execution);
    const arrived = runner.waitingAt(execution, element.id);
    const others =
      execution.parentId === null ? [] : runner.tree.childrenOf(execution.parentId).filter((other) => !arrived.includes(other));
    // Camunda's activatesGateway: as many tokens as incoming flows activate it whatever else may come.
    const stillComing = arrived.length < runner.model.flowsTo(element.id).length && others.some((other) => {
      // A path on its way to the gateway (forked, not yet entered) comes too (Camunda's transition destination).
      const entering = runner.enteringActivity(other);
      if (entering === element.id) return true;
      const at = entering ?? other.activityId ?? innermostActivity(runner.tree.childrenOf(other.id).map((child) => child.activityId));
      return at !== null && at !== element.id && canReach(runner.model, at, element.id);
    });
    if (stillComing) return;
    runner.join(execution, arrived);
    const flows = runner.model.flowsFrom(element.id).filter((flow) => flow.id !== element.defaultFlow);
    const taken = (await runner.flowsHolding(execution, flows)).map((flow) => flow.id);
    if (taken.length === 0 && element.defaultFlow) taken.push(element.defaultFlow);
    if (taken.length === 0) {
      throw new ProcessEngineException(
        engineMessage('02', '004', `No outgoing sequence flow for the element with id '${element.id}' could be selected for continuing the process.`),
      );
    }
    runner.leaveVia(execution, taken);
  },
};

const innermostActivity = (ids: Array<string | null>) => ids.find((id) => id !== null) ?? null;

const reachability = new WeakMap<ProcessModel, Map<string, Set<string>>>();

/**
 * Whether a path of sequence flows leads from one flow node to another, as Camunda's
 * InclusiveGatewayActivityBehavior.isReachable: along outgoing flows only (not through boundary
 * events), from a node without any up to the scope activity that holds it.
 */
function canReach(model: ProcessModel, from: string, to: string): boolean {
  let cache = reachability.get(model);
  if (!cache) reachability.set(model, (cache = new Map()));
  let reachable = cache.get(from);
  if (!reachable) {
    reachable = new Set();
    const pending = [from];
    while (pending.length > 0) {
      const current = pending.pop()!;
      for (const flow of model.flowsFrom(current)) {
        if (reachable.has(flow.targetRef)) continue;
        reachable.add(flow.targetRef);
        pending.push(flow.targetRef);
      }
      // A path inside a scope activity continues after it: follow the enclosing activity's flows too.
      const element = model.activity(current);
      if (element && element.scopeId !== model.key && model.flowsFrom(current).length === 0) pending.push(element.scopeId);
    }
    cache.set(from, reachable);
  }
  return reachable.has(to);
}
