import type { EventDefinitionModel, FlowElementModel } from '../model/flow-element.js';
import { frozenList, frozenMap } from '../model/frozen.js';
import { ProcessModel, type CallActivityReference } from '../model/process-model.js';
import { camundaAttributes, listenersOf } from './camunda-extensions.js';
import { mapProcessGraph } from './flow-elements.js';
import { commaSeparatedList, documentationOf, stringOrNull, type ModdleElement } from './moddle-element.js';
import type { UnresolvedReferences } from './unresolved-references.js';
import { UNKNOWN_POSITION, type XmlPositions } from './xml-positions.js';

/** What the model of one process is built from; the process has passed every rule. */
export interface ProcessSource {
  process: ModdleElement;
  definitions: ModdleElement;
  historyTimeToLive: number | null;
  references: UnresolvedReferences;
  positions: XmlPositions;
}

/** Builds the immutable, indexed model of one valid executable process. */
export function buildProcessModel({ process, definitions, historyTimeToLive, references, positions }: ProcessSource): ProcessModel {
  const key = process.id!;
  const { elements, flows } = mapProcessGraph(process, references);
  const startEvents = elements.filter((element) => element.type === 'bpmn:StartEvent' && element.scopeId === key);
  const initial = initialStartEvent(startEvents);
  const attributes = camundaAttributes(process);
  return new ProcessModel({
    key,
    name: stringOrNull(process.name),
    documentation: documentationOf(process),
    category: stringOrNull(definitions.targetNamespace),
    isExecutable: process.isExecutable === true,
    // Camunda's BpmnParse: the version tag as written (an empty one too); startable unless the
    // attribute is there and not "true" in any case.
    versionTag: attributes.versionTag === undefined ? null : String(attributes.versionTag),
    historyTimeToLive,
    isStartableInTasklist: attributes.isStartableInTasklist === undefined || String(attributes.isStartableInTasklist).toLowerCase() === 'true',
    candidateStarterUsers: frozenList(commaSeparatedList(attributes.candidateStarterUsers)),
    candidateStarterGroups: frozenList(commaSeparatedList(attributes.candidateStarterGroups)),
    jobPriority: stringOrNull(attributes.jobPriority),
    taskPriority: stringOrNull(attributes.taskPriority),
    executionListeners: listenersOf(process, 'camunda:ExecutionListener'),
    hasStartFormKey: initial?.camunda.formKey !== undefined && initial?.camunda.formKey !== '',
    elements: frozenMap(elements.map((element) => [element.id, element] as const)),
    flows: frozenMap(flows.map((flow) => [flow.id, flow] as const)),
    initialStartEvents: frozenList(startEvents.map((event) => event.id)),
    initialActivityId: initial?.id ?? null,
    callActivities: frozenList(elements.flatMap(toCallActivity)),
    messageStartEvents: frozenList(
      startEventsWith(startEvents, 'messageStartEvent').map(([id, definition]) =>
        Object.freeze({ activityId: id, messageRef: definition.messageRef ?? '', messageName: definition.messageName ?? '' }),
      ),
    ),
    signalStartEvents: frozenList(
      startEventsWith(startEvents, 'signalStartEvent').map(([id, definition]) =>
        Object.freeze({ activityId: id, signalRef: definition.signalRef ?? '', signalName: definition.signalName }),
      ),
    ),
    timerStartEvents: frozenList(
      startEventsWith(startEvents, 'startTimerEvent').flatMap(([id, { timer }]) => (timer ? [Object.freeze({ activityId: id, timer })] : [])),
    ),
    errorCodes: frozenMap(
      ((definitions.rootElements ?? []) as ModdleElement[])
        .filter((element) => element.$type === 'bpmn:Error' && element.id)
        .map((element) => [element.id!, stringOrNull(element.errorCode)] as const),
    ),
    position: Object.freeze({ ...(positions.ofId(key) ?? UNKNOWN_POSITION) }),
  });
}

// Camunda's BpmnParse.selectInitial: the none or timer start event, else the only start event.
function initialStartEvent(startEvents: FlowElementModel[]): FlowElementModel | null {
  const plain = startEvents.find((event) => event.activityType === 'startEvent' || event.activityType === 'startTimerEvent');
  return plain ?? (startEvents.length === 1 ? startEvents[0] : null);
}

function startEventsWith(startEvents: FlowElementModel[], activityType: string): Array<[string, EventDefinitionModel]> {
  return startEvents.filter((event) => event.activityType === activityType).map((event) => [event.id, event.eventDefinitions[0]]);
}

function toCallActivity(element: FlowElementModel): CallActivityReference[] {
  if (element.type !== 'bpmn:CallActivity' || element.calledElement === null) return [];
  const attributes = element.camunda;
  return [
    Object.freeze({
      activityId: element.id,
      calledElement: element.calledElement,
      binding: stringOrNull(attributes.calledElementBinding) ?? 'latest',
      version: stringOrNull(attributes.calledElementVersion),
      versionTag: stringOrNull(attributes.calledElementVersionTag),
      tenantId: stringOrNull(attributes.calledElementTenantId),
    }),
  ];
}
