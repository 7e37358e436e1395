import type { TaskAssignmentModel } from '../model/flow-element.js';
import { frozenList } from '../model/frozen.js';
import { commaSeparatedList, type ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';

const USER_PREFIX = 'user(';
const GROUP_PREFIX = 'group(';

/**
 * Camunda's BpmnParse.parseHumanPerformer / parsePotentialOwner / parseUserTaskCustomExtensions:
 * the assignee comes from the one bpmn:humanPerformer, else from camunda:assignee; the candidates
 * from each bpmn:potentialOwner (`user(…)`, `group(…)`, a plain entry a group), then from
 * camunda:candidateUsers and camunda:candidateGroups. Null for anything but a user task.
 */
export function taskAssignmentOf(node: ModdleElement): TaskAssignmentModel | null {
  if (node.$type !== 'bpmn:UserTask') return null;
  const users: string[] = [];
  const groups: string[] = [];
  for (const owner of resourcesOf(node, 'bpmn:PotentialOwner')) {
    for (const entry of commaSeparatedList(formalExpressionOf(owner))) {
      if (entry.startsWith(USER_PREFIX)) users.push(assignmentId(entry, USER_PREFIX));
      else if (entry.startsWith(GROUP_PREFIX)) groups.push(assignmentId(entry, GROUP_PREFIX));
      else groups.push(entry);
    }
  }
  users.push(...commaSeparatedList(node.candidateUsers));
  groups.push(...commaSeparatedList(node.candidateGroups));
  return Object.freeze({ assignee: assigneeOf(node), candidateUsers: frozenList(users), candidateGroups: frozenList(groups) });
}

/**
 * Camunda's errors for a user task's assignee: more than one bpmn:humanPerformer, or a
 * humanPerformer that sets the assignee and a camunda:assignee besides. A humanPerformer without a
 * resourceAssignmentExpression or formalExpression is no error: it sets nothing.
 */
export function checkTaskAssignment(node: ModdleElement, report: ParseReport): void {
  // TaskDefinition.getNameExpression as Java prints it: the name's text, or null.
  const name = typeof node.name === 'string' ? node.name : 'null';
  const performers = resourcesOf(node, 'bpmn:HumanPerformer');
  if (performers.length > 1) {
    report.error(`Invalid task definition: multiple humanPerformer sub elements defined for ${name}`, [node.id]);
  } else if (performers.length === 1 && formalExpressionOf(performers[0]!) !== null && node.assignee !== undefined) {
    report.error(`Invalid usage: duplicate assignee declaration for task ${name}`, [node.id]);
  }
}

/** The assignee expression: the single humanPerformer's formal expression as written, else camunda:assignee. */
function assigneeOf(node: ModdleElement): string | null {
  const performers = resourcesOf(node, 'bpmn:HumanPerformer');
  const performed = performers.length === 1 ? formalExpressionOf(performers[0]!) : null;
  if (performed !== null) return performed;
  return typeof node.assignee === 'string' ? node.assignee : null;
}

/** The task's resource roles of exactly this type (moddle's PotentialOwner is also a HumanPerformer). */
const resourcesOf = (node: ModdleElement, type: string): ModdleElement[] =>
  ((node.resources ?? []) as ModdleElement[]).filter((resource) => resource.$type === type);

/** The text of a resource role's resourceAssignmentExpression/formalExpression; null when either is missing. */
function formalExpressionOf(role: ModdleElement): string | null {
  const expression = (role.resourceAssignmentExpression as ModdleElement | undefined)?.expression as ModdleElement | undefined;
  if (expression?.$type !== 'bpmn:FormalExpression') return null;
  return typeof expression.body === 'string' ? expression.body : '';
}

/** Camunda's getAssignmentId: what lies between the prefix and the last character, trimmed. */
const assignmentId = (entry: string, prefix: string) => entry.slice(prefix.length, entry.length - 1).trim();
