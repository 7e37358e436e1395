import { ProcessEngineException } from '../errors/exceptions.js';
import { startsAsExpression } from '../bpmn/parse/moddle-element.js';
import type { FlowElementModel, ProcessModel } from '../bpmn/index.js';
import type { Execution } from './execution.js';

/**
 * Camunda's DefaultPriorityProvider: the priority the activity declares (camunda:jobPriority or
 * camunda:taskPriority, a number or an expression evaluated on the execution), else the process's,
 * else 0. A value that is no whole number fails with the context as heading.
 */
export function declaredPriority(
  model: Pick<ProcessModel, 'jobPriority' | 'taskPriority'>,
  element: FlowElementModel,
  attribute: 'jobPriority' | 'taskPriority',
  evaluate: (expression: string) => unknown,
  heading: string,
): number {
  const own = element.camunda[attribute];
  const declared = own !== undefined && own !== '' ? String(own) : model[attribute];
  if (declared === null || declared === '') return 0;
  if (!startsAsExpression(declared)) return Number.parseInt(declared, 10);
  const value = evaluate(declared);
  if (typeof value !== 'number') throw new ProcessEngineException(`${heading}: Priority value is not an Integer`);
  if (!Number.isInteger(value)) throw new ProcessEngineException(`${heading}: Priority value must be either Short, Integer, or Long`);
  return value;
}

/** Camunda's ExecutionEntity.toString, as priority errors name the execution. */
export function describeExecution(execution: Execution): string {
  if (execution.parentId === null) return `ProcessInstance[${execution.id}]`;
  return `${execution.isConcurrent ? 'Concurrent' : ''}${execution.isScope ? 'Scope' : ''}Execution[${execution.id}]`;
}

/** Camunda's DefaultJobPriorityProvider.describeContext. */
export const jobContext = (element: FlowElementModel, handlerType: string, execution: string | null) =>
  `Job ${element.id}/${handlerType} instantiated in context of ${execution ?? 'null'}`;
