/** A BPMN event definition, reduced to what the engine needs to know of it. */
export interface EventDefinitionModel {
  /** The moddle type, e.g. 'bpmn:TimerEventDefinition'. */
  readonly type: string;
  readonly messageName?: string | null;
  readonly signalName?: string | null;
  readonly errorCode?: string | null;
  readonly escalationCode?: string | null;
  readonly timeDate?: string | null;
  readonly timeCycle?: string | null;
  readonly timeDuration?: string | null;
  readonly condition?: string | null;
}

/** One flow node (activity, event, gateway) of a process or sub-process. */
export interface FlowElementModel {
  readonly id: string;
  /** The moddle type, e.g. 'bpmn:UserTask'. */
  readonly type: string;
  readonly name: string | null;
  /** The enclosing sub-process, or null at process level. */
  readonly parentId: string | null;
  readonly incoming: readonly string[];
  readonly outgoing: readonly string[];
  /** The default sequence flow of a gateway or activity. */
  readonly defaultFlow: string | null;
  /** For boundary events: the activity they are attached to, and whether they interrupt it. */
  readonly attachedToRef: string | null;
  readonly cancelActivity: boolean;
  readonly eventDefinitions: readonly EventDefinitionModel[];
  /** For call activities: the bpmn calledElement attribute. */
  readonly calledElement: string | null;
  /** camunda:* attributes by local name (asyncBefore, type, topic, formKey, class, …). */
  readonly camunda: Readonly<Record<string, string | number | boolean>>;
  /** camunda extension elements (inputOutput, failedJobRetryTimeCycle, properties, listeners…) as plain data. */
  readonly extensions: readonly unknown[];
}

export interface SequenceFlowModel {
  readonly id: string;
  readonly name: string | null;
  readonly sourceRef: string;
  readonly targetRef: string;
  readonly parentId: string | null;
  /** The condition expression's text, e.g. '${amount > 1000}'. */
  readonly condition: string | null;
}

/** A call activity's target, as Camunda's static resolution reads it. */
export interface CallActivityReference {
  readonly activityId: string;
  readonly calledElement: string | null;
  /** latest (default), deployment, version or versionTag. */
  readonly binding: string;
  readonly version: string | null;
  readonly versionTag: string | null;
  readonly tenantId: string | null;
}

/** An immutable, indexed executable process, built once per deployed definition. */
export interface ProcessModel {
  readonly key: string;
  readonly name: string | null;
  readonly documentation: string | null;
  /** The definitions' targetNamespace (Camunda's category). */
  readonly category: string | null;
  readonly isExecutable: boolean;
  readonly versionTag: string | null;
  /** Days; null when the model declares none. */
  readonly historyTimeToLive: number | null;
  readonly isStartableInTasklist: boolean;
  readonly candidateStarterUsers: readonly string[];
  readonly candidateStarterGroups: readonly string[];
  /** Whether the none start event has a camunda:formKey or camunda:formRef. */
  readonly hasStartFormKey: boolean;
  readonly elements: ReadonlyMap<string, FlowElementModel>;
  readonly flows: ReadonlyMap<string, SequenceFlowModel>;
  readonly callActivities: readonly CallActivityReference[];
  /** Start events at process level, in document order. */
  readonly initialStartEvents: readonly string[];
  /** Where the process element starts in its resource (1-based). */
  readonly position: { readonly line: number; readonly column: number };
}

/** The element with this id, or undefined. */
export function activity(model: ProcessModel, id: string): FlowElementModel | undefined {
  return model.elements.get(id);
}

/** The sequence flows leaving an element, in document order. */
export function flowsFrom(model: ProcessModel, id: string): SequenceFlowModel[] {
  const element = model.elements.get(id);
  return (element?.outgoing ?? []).flatMap((flowId) => model.flows.get(flowId) ?? []);
}
