/** camunda:* attributes of an element by local name, typed as camunda-bpmn-moddle reads them (asyncBefore: boolean, topic: string, …). */
export type CamundaAttributes = Readonly<Record<string, string | number | boolean>>;

/** A timer's configuration. Camunda reads timeDate first, then timeCycle, then timeDuration. */
export interface TimerModel {
  readonly kind: 'date' | 'cycle' | 'duration';
  readonly expression: string;
  /** The timer event definition's own camunda:exclusive (Camunda's TimerDeclarationImpl; only `true` or none is exclusive). */
  readonly exclusive: boolean;
}

/** A BPMN event definition with the message, signal, error or escalation it references already looked up. */
export interface EventDefinitionModel {
  /** The moddle type, e.g. 'bpmn:TimerEventDefinition'. */
  readonly type: string;
  readonly id: string | null;
  readonly messageRef: string | null;
  readonly messageName: string | null;
  readonly signalRef: string | null;
  readonly signalName: string | null;
  readonly errorRef: string | null;
  /** The referenced bpmn:error's errorCode; Camunda falls back to errorRef itself when no bpmn:error has that id. */
  readonly errorCode: string | null;
  /** The referenced bpmn:error's camunda:errorMessage (an expression an error end event evaluates). */
  readonly errorMessage: string | null;
  readonly escalationRef: string | null;
  readonly escalationCode: string | null;
  readonly timer: TimerModel | null;
  /** A conditional event's condition text. */
  readonly condition: string | null;
  /** A conditional event's condition as a script, when it names a `language`; else null. */
  readonly conditionScript: ScriptModel | null;
  readonly variableName: string | null;
  readonly variableEvents: readonly string[];
  /** A link event's name. */
  readonly linkName: string | null;
  /** A compensate event's activity. */
  readonly activityRef: string | null;
  /** A compensate throw event's waitForCompletion (Camunda always waits; false only draws a warning). */
  readonly waitForCompletion: boolean;
  readonly camunda: CamundaAttributes;
  /** The definition's own extension elements as plain data (a signal's camunda:in payload). */
  readonly extensions: readonly unknown[];
}

/** What holds a condition (a sequence flow, a conditional event definition): an expression or a script. */
export interface ConditionModel {
  readonly condition: string | null;
  readonly conditionScript: ScriptModel | null;
}

/** Whether a flow or event definition has a condition at all (a script from a resource has no text). */
export const hasCondition = (holder: ConditionModel): boolean => holder.condition !== null || holder.conditionScript !== null;

/** A script given inline or as a resource (camunda:resource). */
export interface ScriptModel {
  readonly format: string | null;
  readonly source: string | null;
  readonly resource: string | null;
}

/** The value of a camunda:inputParameter or outputParameter, a list item or a map entry. */
export type ParameterValue =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'script'; readonly script: ScriptModel }
  | { readonly kind: 'list'; readonly items: readonly ParameterValue[] }
  | { readonly kind: 'map'; readonly entries: readonly { readonly key: string; readonly value: ParameterValue }[] }
  | { readonly kind: 'null' };

export interface ParameterModel {
  readonly name: string;
  readonly value: ParameterValue;
}

/** camunda:inputOutput: local variables mapped in before the activity and out after it. */
export interface InputOutputModel {
  readonly inputParameters: readonly ParameterModel[];
  readonly outputParameters: readonly ParameterModel[];
}

/**
 * camunda:connector (Camunda's connect plugin): the connector that implements a service-task-like
 * element, with its own input parameters (the request's) and output parameters (read from the response).
 */
export interface ConnectorModel {
  /** camunda:connectorId, trimmed; '' when missing (refused at deployment). */
  readonly connectorId: string;
  readonly inputOutput: InputOutputModel | null;
}

/** camunda:field injected into a delegate or listener. */
export interface FieldModel {
  readonly name: string;
  readonly stringValue: string | null;
  readonly expression: string | null;
}

/** camunda:executionListener or camunda:taskListener. */
export interface ListenerModel {
  readonly event: string | null;
  /** A task listener's id (a timeout listener's timer jobs name it). */
  readonly id: string | null;
  /** A timeout task listener's timer. */
  readonly timer: TimerModel | null;
  readonly class: string | null;
  readonly expression: string | null;
  readonly delegateExpression: string | null;
  readonly script: ScriptModel | null;
  readonly fields: readonly FieldModel[];
}

/**
 * A user task's assignment as Camunda's TaskDefinition holds it: the assignee expression (from
 * bpmn:humanPerformer or camunda:assignee) and the candidate expressions (from bpmn:potentialOwner,
 * then camunda:candidateUsers / candidateGroups), one per comma-separated entry.
 */
export interface TaskAssignmentModel {
  readonly assignee: string | null;
  readonly candidateUsers: readonly string[];
  readonly candidateGroups: readonly string[];
}

/** Camunda's id suffix of the scope that runs a multi-instance activity's instances. */
export const MI_BODY_SUFFIX = '#multiInstanceBody';

export const miBodyId = (activityId: string) => `${activityId}${MI_BODY_SUFFIX}`;

/** bpmn:multiInstanceLoopCharacteristics (Camunda runs such an activity inside a multiInstanceBody scope). */
export interface MultiInstanceModel {
  readonly isSequential: boolean;
  readonly loopCardinality: string | null;
  readonly collection: string | null;
  readonly elementVariable: string | null;
  readonly completionCondition: string | null;
  readonly camunda: CamundaAttributes;
  /** The camunda:failedJobRetryTimeCycle of the loop characteristics: the inner activity's jobs' (the element's own is the body's). */
  readonly failedJobRetryTimeCycle: string | null;
}

/** One flow node (activity, event or gateway) of a process, at any depth. */
export interface FlowElementModel {
  readonly id: string;
  /** The moddle type, e.g. 'bpmn:UserTask'. */
  readonly type: string;
  /** Camunda's activity type as REST and history report it, e.g. 'userTask', 'boundaryTimer', 'noneEndEvent'. */
  readonly activityType: string;
  readonly name: string | null;
  /** Its bpmn:documentation (a user task's description expression). */
  readonly documentation: string | null;
  /** The flow scope: the process key, or the id of the enclosing sub-process. */
  readonly scopeId: string;
  /** Sequence flow ids, in document order of the flows. */
  readonly incoming: readonly string[];
  readonly outgoing: readonly string[];
  /** The default sequence flow of a gateway or activity. */
  readonly defaultFlow: string | null;
  /** For boundary events: the activity they are attached to, and whether they interrupt it. */
  readonly attachedTo: string | null;
  readonly cancelActivity: boolean;
  /** Ids of the boundary events attached to this activity. */
  readonly boundaryEvents: readonly string[];
  /** For sub-processes: an event sub-process (triggeredByEvent). */
  readonly triggeredByEvent: boolean;
  /** For event sub-process start events: whether they interrupt the enclosing scope. */
  readonly isInterrupting: boolean;
  readonly isForCompensation: boolean;
  /**
   * For an activity with a compensation boundary event: the compensation handler the boundary event
   * is associated with (bpmn:association), which runs when the completed activity is compensated.
   */
  readonly compensationHandler: string | null;
  readonly eventDefinitions: readonly EventDefinitionModel[];
  /** For call activities: the bpmn calledElement attribute. */
  readonly calledElement: string | null;
  /** For script tasks. */
  readonly script: ScriptModel | null;
  readonly multiInstance: MultiInstanceModel | null;
  /** camunda:* attributes (asyncBefore, asyncAfter, exclusive, type, topic, formKey, class, assignee, jobPriority…). */
  readonly camunda: CamundaAttributes;
  /** camunda:field elements, injected into the element's class or delegate expression. */
  readonly fields: readonly FieldModel[];
  readonly inputOutput: InputOutputModel | null;
  /** camunda:connector of a service-task-like element (or of its message event definition). */
  readonly connector: ConnectorModel | null;
  /** camunda:failedJobRetryTimeCycle, e.g. 'R5/PT5M'. */
  readonly failedJobRetryTimeCycle: string | null;
  readonly executionListeners: readonly ListenerModel[];
  readonly taskListeners: readonly ListenerModel[];
  /** A user task's assignee and candidates; null for any other element. */
  readonly taskAssignment: TaskAssignmentModel | null;
  /** camunda:properties, in document order (names may repeat). */
  readonly properties: readonly { readonly name: string; readonly value: string | null }[];
  /** Every extension element as plain data (formData, connector, in/out mappings…), references as ids. */
  readonly extensions: readonly unknown[];
}

/** A sequence flow between two flow nodes of the same scope. */
export interface SequenceFlowModel {
  readonly id: string;
  readonly name: string | null;
  readonly scopeId: string;
  readonly sourceRef: string;
  readonly targetRef: string;
  /** The condition expression's text, trimmed as Camunda does, e.g. '${amount > 1000}'. */
  readonly condition: string | null;
  /** The condition as a script, when it names a `language` (its text or camunda:resource); else null. */
  readonly conditionScript: ScriptModel | null;
  /** Whether the source names this flow as its default. */
  readonly isDefault: boolean;
  /** Listeners to the flow's take event. */
  readonly executionListeners: readonly ListenerModel[];
}
