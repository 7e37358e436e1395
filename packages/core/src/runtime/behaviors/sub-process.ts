import { ProcessEngineException } from '../../errors/exceptions.js';
import { startCalledInstance } from '../call-activities.js';
import type { ActivityBehavior } from './behavior.js';

/** An embedded sub-process: its scope execution enters the none start event inside. */
export const subProcess: ActivityBehavior = {
  async execute(runner, execution, element) {
    const start = runner.model
      .childrenOf(element.id)
      .find((child) => child.type === 'bpmn:StartEvent' && child.eventDefinitions.length === 0);
    if (!start) throw new ProcessEngineException(`Sub-process '${element.id}' has no none start event`);
    runner.enter(execution, start.id);
  },
};

/** A call activity starts the called process and waits until it ends (resumeCallingInstance signals it). */
export const callActivity: ActivityBehavior = {
  async execute(runner, execution, element) {
    await startCalledInstance(runner, execution, element);
  },
  async signal(runner, execution) {
    runner.leave(execution);
  },
};
