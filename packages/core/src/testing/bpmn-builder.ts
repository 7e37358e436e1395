/** Options for a small executable process built in code. */
export interface SimpleProcessOptions {
  name?: string;
  versionTag?: string;
  historyTimeToLive?: number | string | null;
  startableInTasklist?: boolean;
  targetNamespace?: string;
  /** Extra BPMN elements placed inside the process, between start and end. */
  body?: string;
  /** Also emit a diagram (bpmndi) section. */
  withDiagram?: boolean;
}

/** A minimal executable process (start → end) as BPMN 2.0 XML, for tests and examples. */
export function simpleProcessXml(key: string, options: SimpleProcessOptions = {}): string {
  const attributes = [
    `id="${key}"`,
    'isExecutable="true"',
    options.name !== undefined ? `name="${options.name}"` : '',
    options.versionTag !== undefined ? `camunda:versionTag="${options.versionTag}"` : '',
    options.historyTimeToLive !== null ? `camunda:historyTimeToLive="${options.historyTimeToLive ?? 30}"` : '',
    options.startableInTasklist !== undefined ? `camunda:isStartableInTasklist="${options.startableInTasklist}"` : '',
  ].filter(Boolean);
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="definitions_${key}" targetNamespace="${options.targetNamespace ?? 'http://bpmn.io/schema/bpmn'}">
  <bpmn:process ${attributes.join(' ')}>
    <bpmn:startEvent id="start"><bpmn:outgoing>flow1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="flow1" sourceRef="start" targetRef="end" />
    ${options.body ?? ''}
    <bpmn:endEvent id="end"><bpmn:incoming>flow1</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>
`;
}

/** Options for externalTaskProcessXml. */
export interface ExternalTaskProcessOptions {
  /** The external task's topic (default: the process key). */
  topic?: string;
  /** The external task's activity id (default `work`). */
  activityId?: string;
  /** Default 1 (days). */
  historyTimeToLive?: number;
  /** More attributes of the service task, as XML (`camunda:taskPriority="7"`, say). */
  taskAttributes?: string;
}

/** start → one external task → end as BPMN 2.0 XML: the model of many external-task tests and of the worker benchmark. */
export function externalTaskProcessXml(key: string, options: ExternalTaskProcessOptions = {}): string {
  const task = options.activityId ?? 'work';
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="definitions_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="${options.historyTimeToLive ?? 1}">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="${task}" />
    <bpmn:serviceTask id="${task}" camunda:type="external" camunda:topic="${options.topic ?? key}" ${options.taskAttributes ?? ''} />
    <bpmn:sequenceFlow id="f2" sourceRef="${task}" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>
`;
}
