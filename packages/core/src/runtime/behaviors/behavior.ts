import type { FlowElementModel } from '../../bpmn/index.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';

/** What an element does when an execution arrives (Camunda's ActivityBehavior); waiting ones also get signals. */
export interface ActivityBehavior {
  execute(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<void>;
  /** Continues a waiting execution (a completed user task, a received message…). */
  signal?(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<void>;
}
