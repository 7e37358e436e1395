import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { FixedClock } from '../../src/clock.js';
import { createTestEngine } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const double = (value: number) => ({ type: 'double' as const, value, valueInfo: {} });

/** A user task with the given attributes and content, between start and end. */
const taskModel = (attributes: string, content = '') =>
  wrap('tasked', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" ${attributes}>${content}</bpmn:userTask>${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`);

describe('user tasks and call activities as Camunda', () => {
  let engine: (ProcessEngine & { clock: FixedClock }) | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });
  const deploy = async (...xmls: string[]) => {
    engine = (await createTestEngine({})) as ProcessEngine & { clock: FixedClock };
    for (const [index, xml] of xmls.entries()) await engine.deployment.deploy({ resources: [{ name: `m${index}.bpmn`, bytes: Buffer.from(xml) }] });
  };
  const start = async (key: string, variables = {}) => {
    const definition = await engine!.processDefinition.findLatestByKey(key);
    return engine!.runtime.startProcessInstanceById(definition!.id, { variables });
  };

  it('reads due and follow-up dates as durations from now or ISO dates, the documentation as description, the priority as a number', async () => {
    await deploy(taskModel('camunda:dueDate="${due}" camunda:followUpDate="PT1H" camunda:priority="${p}"', '<bpmn:documentation>Check ${what}</bpmn:documentation>'));
    const now = engine!.clock.now().getTime();
    const { id } = await start('tasked', { due: string('P2D'), p: double(2.7), what: string('the invoice') });
    const [task] = await engine!.task.findTasks({ processInstanceId: id });
    expect([task!.due!.getTime() - now, task!.followUp!.getTime() - now, task!.priority, task!.description]).toEqual([2 * 86_400_000, 3_600_000, 2, 'Check the invoice']);

    await expect(start('tasked', { due: string('tomorrow'), p: double(1), what: string('') })).rejects.toThrow("ENGINE-04027 Exception while resolving duedate 'tomorrow'");
    await expect(start('tasked', { due: string('2026-12-24T10:00:00Z'), p: string('high'), what: string('') })).rejects.toThrow('Priority does not resolve to a number: high');
    // Integer.parseInt: beyond an int fails; Number.intValue(): a long keeps its low 32 bits, a double (with a fraction) saturates.
    await expect(start('tasked', { due: string('P1D'), p: string('2147483648'), what: string('') })).rejects.toThrow('Priority does not resolve to a number: 2147483648');
    const priorities = [];
    for (const p of [{ type: 'long' as const, value: 3_000_000_000, valueInfo: {} }, double(3_500_000_000.5), double(-7.9)]) {
      const started = await start('tasked', { due: string('P1D'), p, what: string('') });
      priorities.push((await engine!.task.findTasks({ processInstanceId: started.id }))[0]!.priority);
    }
    expect(priorities).toEqual([-1_294_967_296, 2_147_483_647, -7]);
  });

  it('refuses an assignee expression that gives no text, as Camunda casts it', async () => {
    await deploy(taskModel('camunda:assignee="${who}"'));
    await expect(start('tasked', { who: double(42) })).rejects.toThrow('Assignee expression does not resolve to a String: ${who}');
    const { id } = await start('tasked', { who: string('mary') });
    expect((await engine!.task.findTasks({ processInstanceId: id }))[0]!.assignee).toBe('mary');
  });

  it('keeps a form key as written and evaluates it when the task is read, as Camunda\'s initializeFormKeys', async () => {
    await deploy(taskModel('camunda:formKey="embedded:app:forms/${formName}.html"'));
    const { id } = await start('tasked', { formName: string('a') });
    const [task] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.setVariables(task!.id, { formName: string('b') });
    const [read] = await engine!.task.findTasks({ processInstanceId: id });
    expect([read!.formKey, (await engine!.task.getTask(task!.id))!.formKey, (await engine!.task.getTaskFormData(task!.id)).formKey]).toEqual(Array(3).fill('embedded:app:forms/b.html'));
  });

  it('fires the delete listener of a task on the instance itself when the instance is deleted', async () => {
    await deploy(taskModel('', '<bpmn:extensionElements><camunda:taskListener event="delete" expression="${log.add(task.eventName)}" /><camunda:executionListener event="end" expression="${log.add(execution.eventName)}" /></bpmn:extensionElements>'));
    const events: string[] = [];
    engine!.delegates.registerBean('log', { add: (event: string) => events.push(event) });
    const { id } = await start('tasked');
    await engine!.runtime.deleteProcessInstance(id);
    expect(events).toEqual(['delete', 'end']);
  });

  it('passes local="true" variables from and to the call activity\'s own scope only', async () => {
    const child = wrap(
      'child',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`,
    );
    const caller = wrap(
      'caller',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
       <bpmn:callActivity id="call" calledElement="child"><bpmn:extensionElements>
         <camunda:inputOutput><camunda:inputParameter name="localVar">L</camunda:inputParameter><camunda:outputParameter name="kept">\${outLocal}</camunda:outputParameter></camunda:inputOutput>
         <camunda:in variables="all" local="true" /><camunda:in source="global" target="g2" local="true" />
         <camunda:out source="result" target="outLocal" local="true" />
       </bpmn:extensionElements></bpmn:callActivity>${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />`,
    );
    await deploy(child, caller);
    const { id } = await start('caller', { global: string('G') });
    const [called] = await engine!.runtime.findProcessInstances({ processDefinitionKey: 'child' });
    const passed = await engine!.runtime.getVariables(called!.id);
    expect(Object.fromEntries(Object.entries(passed).map(([name, value]) => [name, value.value]))).toEqual({ localVar: 'L', g2: null });
    const [work] = await engine!.task.findTasks({ processInstanceId: called!.id });
    await engine!.task.complete(work!.id, { result: string('R') });
    const variables = await engine!.runtime.getVariables(id);
    expect(Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, value.value]))).toEqual({ global: 'G', kept: 'R' });
  });

  it('refuses listeners without a valid event and call activity parameters without source or target, as Camunda', async () => {
    engine = (await createTestEngine({})) as ProcessEngine & { clock: FixedClock };
    const refusal = async (xml: string) => {
      const error = await engine!.deployment.deploy({ resources: [{ name: 'bad.bpmn', bytes: Buffer.from(xml) }] }).catch((caught: Error) => caught);
      return error instanceof Error ? error.message : 'deployed';
    };
    const extensions = (content: string) => `<bpmn:extensionElements>${content}</bpmn:extensionElements>`;
    expect(await refusal(taskModel('', extensions('<camunda:taskListener event="finish" class="a.B" />')))).toContain(
      "Attribute 'event' must be one of {create|assignment|complete|update|delete|timeout}",
    );
    expect(await refusal(taskModel('', extensions('<camunda:executionListener class="a.B" />')))).toContain("Attribute 'event' is mandatory on listener");
    expect(await refusal(taskModel('', extensions('<camunda:executionListener event="take" class="a.B" />')))).toContain("Attribute 'event' must be one of {start|end}");
    const call = (parameter: string) =>
      wrap('calling', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}<bpmn:callActivity id="call" calledElement="x">${extensions(parameter)}</bpmn:callActivity>${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`);
    expect(await refusal(call('<camunda:in target="x" />'))).toContain("Missing parameter 'source' or 'sourceExpression' when passing variables");
    expect(await refusal(call('<camunda:out source="x" />'))).toContain("Missing attribute 'target' when attribute 'source' or 'sourceExpression' is set");
    expect(await refusal(call('<camunda:in variables="all" /><camunda:in businessKey="${key}" /><camunda:out source="a" target="b" />'))).toBe('deployed');
  });

  it('names the binding in the error of a called process that is not deployed', async () => {
    const caller = (binding: string) =>
      wrap(`calls_${binding}`, `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}<bpmn:callActivity id="call" calledElement="nope" camunda:calledElementBinding="${binding}" camunda:calledElementVersion="2" camunda:calledElementVersionTag="v1" />${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`);
    await deploy(caller('latest'), caller('version'), caller('versionTag'));
    await expect(start('calls_latest')).rejects.toThrow("no processes deployed with key 'nope' and tenant-id 'null': processDefinition is null");
    await expect(start('calls_version')).rejects.toThrow("no processes deployed with key = 'nope', version = '2' and tenant-id = 'null': processDefinition is null");
    await expect(start('calls_versionTag')).rejects.toThrow("no processes deployed with key = 'nope', versionTag = 'v1' and tenant-id = 'null': processDefinition is null");
  });

  describe('a call activity\'s variable mapping (camunda:variableMappingClass / …DelegateExpression)', () => {
    const child = wrap('child', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`);
    const caller = (key: string, attribute: string) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
         <bpmn:callActivity id="call" calledElement="child" ${attribute}><bpmn:extensionElements>
           <camunda:in source="a" target="viaIn" /><camunda:out source="result" target="viaOut" />
         </bpmn:extensionElements></bpmn:callActivity>${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />`,
      );
    const plain = (variables: Record<string, { value: unknown }>) => Object.fromEntries(Object.entries(variables).map(([name, variable]) => [name, variable.value]));
    const completeChild = async () => {
      const [called] = await engine!.runtime.findProcessInstances({ processDefinitionKey: 'child' });
      const [work] = await engine!.task.findTasks({ processInstanceId: called!.id });
      await engine!.task.complete(work!.id, { result: string('R') });
    };

    it('maps input after camunda:in as the called instance starts, and output after camunda:out as it ends', async () => {
      await deploy(child, caller('caller', 'camunda:variableMappingClass="org.example.Mapping"'));
      const seen: unknown[] = [];
      engine!.delegates.registerClass('org.example.Mapping', {
        mapInputVariables(superExecution, subVariables) {
          seen.push(subVariables.get('viaIn'));
          subVariables.putValue('mapped', `${String(superExecution.getVariable('a'))}!`);
        },
        mapOutputVariables(superExecution, subInstance) {
          seen.push(superExecution.getVariable('viaOut'));
          superExecution.setVariable('back', `${String(subInstance.getVariable('result'))}?`);
        },
      });
      const { id } = await start('caller', { a: string('A') });
      const [called] = await engine!.runtime.findProcessInstances({ processDefinitionKey: 'child' });
      expect(plain(await engine!.runtime.getVariables(called!.id))).toEqual({ viaIn: 'A', mapped: 'A!' });
      await completeChild();
      expect(plain(await engine!.runtime.getVariables(id))).toEqual({ a: 'A', viaOut: 'R', back: 'R?' });
      expect(seen).toEqual(['A', 'R']);
    });

    it('resolves a delegate expression to a bean, and fails as Camunda for an unknown class or a value that is no mapping', async () => {
      await deploy(
        child,
        caller('byBean', 'camunda:variableMappingDelegateExpression="${mapper}"'),
        caller('byText', 'camunda:variableMappingDelegateExpression="${\'text\'}"'),
        caller('byClass', 'camunda:variableMappingClass="org.example.Missing"'),
      );
      engine!.delegates.registerBean('mapper', {
        mapInputVariables: (_: unknown, subVariables: { putValue(name: string, value: unknown): unknown }) => subVariables.putValue('mapped', 1),
        mapOutputVariables: (superExecution: { setVariable(name: string, value: unknown): void }) => superExecution.setVariable('back', 2),
      });
      const { id } = await start('byBean', { a: string('A') });
      await completeChild();
      expect(plain(await engine!.runtime.getVariables(id))).toMatchObject({ back: 2 });
      await expect(start('byText')).rejects.toThrow("ENGINE-02041 Class 'java.lang.String' doesn't implement 'org.camunda.bpm.engine.delegate.DelegateVariableMapping'.");
      await expect(start('byClass')).rejects.toThrow("ENGINE-09008 Exception while instantiating class 'org.example.Missing'");
    });
  });
});
