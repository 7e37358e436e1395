import type { FlowElementModel, ListenerModel, SequenceFlowModel, TimerModel } from './flow-element.js';

/** A call activity's target, as Camunda's static resolution reads it. */
export interface CallActivityReference {
  readonly activityId: string;
  readonly calledElement: string;
  /** camunda:calledElementBinding: latest (default), deployment, version or versionTag. */
  readonly binding: string;
  readonly version: string | null;
  readonly versionTag: string | null;
  readonly tenantId: string | null;
}

/** A process-level start event that a message starts. */
export interface MessageStartEventModel {
  readonly activityId: string;
  readonly messageRef: string;
  readonly messageName: string;
}

/** A process-level start event that a signal starts. */
export interface SignalStartEventModel {
  readonly activityId: string;
  readonly signalRef: string;
  readonly signalName: string | null;
}

/** A process-level start event that a timer starts. */
export interface TimerStartEventModel {
  readonly activityId: string;
  readonly timer: TimerModel;
}

/** The data of a ProcessModel; see ProcessModel. */
export interface ProcessModelData {
  /** The process id, Camunda's process definition key. */
  readonly key: string;
  readonly name: string | null;
  /** The first bpmn:documentation text. */
  readonly documentation: string | null;
  /** The definitions' targetNamespace (Camunda's category). */
  readonly category: string | null;
  readonly isExecutable: boolean;
  readonly versionTag: string | null;
  /** Days: the model's, or the engine default for a process without the attribute; null when neither gives one. */
  readonly historyTimeToLive: number | null;
  readonly isStartableInTasklist: boolean;
  readonly candidateStarterUsers: readonly string[];
  readonly candidateStarterGroups: readonly string[];
  readonly jobPriority: string | null;
  readonly taskPriority: string | null;
  /** The process element's camunda:executionListener elements (start, end), in document order. */
  readonly executionListeners: readonly ListenerModel[];
  /** Whether the initial start event has a camunda:formKey (Camunda ignores formRef here). */
  readonly hasStartFormKey: boolean;
  /** Every flow node of the process, sub-processes included, by id. */
  readonly elements: ReadonlyMap<string, FlowElementModel>;
  readonly flows: ReadonlyMap<string, SequenceFlowModel>;
  /** Start events of the process level, in document order. */
  readonly initialStartEvents: readonly string[];
  /** Camunda's initial activity: the none or timer start event, else the only start event. */
  readonly initialActivityId: string | null;
  readonly callActivities: readonly CallActivityReference[];
  readonly messageStartEvents: readonly MessageStartEventModel[];
  readonly signalStartEvents: readonly SignalStartEventModel[];
  readonly timerStartEvents: readonly TimerStartEventModel[];
  /** The definitions' bpmn:error elements: id → errorCode (camunda:errorEventDefinition refers to them by id). */
  readonly errorCodes: ReadonlyMap<string, string | null>;
  /** Where the process element's start tag ends in its resource (1-based; 0 when unknown). */
  readonly position: { readonly line: number; readonly column: number };
}

// Declaration merging: the class carries the data plus lookups over it, and no behaviour.
export interface ProcessModel extends ProcessModelData {}

/** An immutable, indexed executable process, built once per deployed definition and cached. */
export class ProcessModel {
  readonly #flowsFrom = new Map<string, SequenceFlowModel[]>();
  readonly #flowsTo = new Map<string, SequenceFlowModel[]>();
  readonly #children = new Map<string, FlowElementModel[]>();

  constructor(data: ProcessModelData) {
    Object.assign(this, data);
    for (const flow of data.flows.values()) {
      push(this.#flowsFrom, flow.sourceRef, flow);
      push(this.#flowsTo, flow.targetRef, flow);
    }
    for (const element of data.elements.values()) push(this.#children, element.scopeId, element);
    for (const index of [this.#flowsFrom, this.#flowsTo, this.#children]) index.forEach((list) => Object.freeze(list));
    Object.freeze(this);
  }

  /** The flow node with this id (at any depth), or undefined. */
  activity(id: string): FlowElementModel | undefined {
    return this.elements.get(id);
  }

  /** The sequence flows leaving a flow node, in document order. */
  flowsFrom(id: string): readonly SequenceFlowModel[] {
    return this.#flowsFrom.get(id) ?? [];
  }

  /** The sequence flows entering a flow node, in document order. */
  flowsTo(id: string): readonly SequenceFlowModel[] {
    return this.#flowsTo.get(id) ?? [];
  }

  /** The flow nodes directly inside a scope (the process key or a sub-process id). */
  childrenOf(scopeId: string): readonly FlowElementModel[] {
    return this.#children.get(scopeId) ?? [];
  }

  /** The start event a plain start begins with (Camunda's initial), or null. */
  initialActivity(): FlowElementModel | null {
    return this.initialActivityId === null ? null : (this.elements.get(this.initialActivityId) ?? null);
  }
}

function push<K, V>(index: Map<K, V[]>, key: K, value: V): void {
  const values = index.get(key);
  if (values) values.push(value);
  else index.set(key, [value]);
}
