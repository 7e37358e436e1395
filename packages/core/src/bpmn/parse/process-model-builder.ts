import type { CallActivityReference, FlowElementModel, ProcessModel } from '../model/process-model.js';
import { camundaAttributes, collectFlowElements } from './flow-elements.js';
import { missingHistoryTimeToLive, parseHistoryTimeToLive } from './history-time-to-live.js';
import type { ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';

/** The engine's history time to live settings the parse applies. */
export interface TimeToLiveRules {
  /** The engine default in days, used when the model has none. */
  historyTimeToLive: number | null;
  enforceHistoryTimeToLive: boolean;
}

/** Builds the immutable model of one executable process; reports problems and returns null when it has any. */
export function buildProcessModel(
  process: ModdleElement,
  definitions: ModdleElement,
  report: ParseReport,
  rules: TimeToLiveRules,
): ProcessModel | null {
  const errorsBefore = report.errors.length;
  const key = process.id!;
  const contents = collectFlowElements(process, null, { elements: new Map(), flows: new Map(), moddleElements: [] });
  for (const flow of contents.flows.values()) {
    if (!flow.sourceRef) report.error(`Invalid source '' of sequence flow '${flow.id}'`, flow.id);
    if (!flow.targetRef) report.error(`Invalid destination '' of sequence flow '${flow.id}'`, flow.id);
  }

  const historyTimeToLive = timeToLive(process, report, rules);
  const initialStartEvents = [...contents.elements.values()]
    .filter((element) => element.type === 'bpmn:StartEvent' && element.parentId === null)
    .map((element) => element.id);
  if (report.errors.length > errorsBefore) return null;

  const attributes = camundaAttributes(process);
  const model: ProcessModel = {
    key,
    name: process.name ?? null,
    documentation: documentationOf(process),
    category: definitions.targetNamespace ?? null,
    isExecutable: true,
    versionTag: stringOrNull(attributes.versionTag),
    historyTimeToLive,
    isStartableInTasklist: attributes.isStartableInTasklist !== false,
    candidateStarterUsers: commaList(attributes.candidateStarterUsers),
    candidateStarterGroups: commaList(attributes.candidateStarterGroups),
    hasStartFormKey: initialStartEvents.some((id) => hasFormKey(contents.elements.get(id)!)),
    elements: contents.elements,
    flows: contents.flows,
    callActivities: Object.freeze([...contents.elements.values()].filter((e) => e.type === 'bpmn:CallActivity').map(toCallActivity)),
    initialStartEvents: Object.freeze(initialStartEvents),
    position: report.positionOf(key),
  };
  return Object.freeze(model);
}

function timeToLive(process: ModdleElement, report: ParseReport, rules: TimeToLiveRules): number | null {
  let days: number | null;
  try {
    days = parseHistoryTimeToLive(process.historyTimeToLive);
  } catch (error) {
    report.error((error as Error).message, process.id!);
    return null;
  }
  if (days === null && rules.historyTimeToLive === null && rules.enforceHistoryTimeToLive) {
    report.error(missingHistoryTimeToLive(), process.id!);
  }
  return days;
}

function toCallActivity(element: FlowElementModel): CallActivityReference {
  const attributes = element.camunda;
  return Object.freeze({
    activityId: element.id,
    calledElement: element.calledElement,
    binding: stringOrNull(attributes.calledElementBinding) ?? 'latest',
    version: stringOrNull(attributes.calledElementVersion),
    versionTag: stringOrNull(attributes.calledElementVersionTag),
    tenantId: stringOrNull(attributes.calledElementTenantId),
  });
}

const hasFormKey = (element: FlowElementModel) =>
  element.eventDefinitions.length === 0 && (element.camunda.formKey !== undefined || element.camunda.formRef !== undefined);

function documentationOf(element: ModdleElement): string | null {
  const documentation = (element.documentation ?? []) as ModdleElement[];
  return documentation[0]?.text ?? null;
}

const stringOrNull = (value: unknown) => (value === undefined || value === null || value === '' ? null : String(value));

function commaList(value: unknown): readonly string[] {
  if (typeof value !== 'string') return Object.freeze([]);
  return Object.freeze(value.split(',').map((part) => part.trim()).filter(Boolean));
}
