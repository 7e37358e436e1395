import { describe, expect, it } from 'vitest';
import { ProcessEngineException } from '../../src/errors/exceptions.js';
import { ClassNotFoundError, DelegateRegistry, invokeDelegate, type DelegateExecution } from '../../src/runtime/delegates/delegate-registry.js';

function fakeExecution(): DelegateExecution & { variables: Map<string, unknown> } {
  const variables = new Map<string, unknown>();
  // Only the variable methods matter to the registry; the rest of DelegateExecution is not called here.
  return {
    variables,
    getVariable: (name: string) => variables.get(name),
    setVariable: (name: string, value: unknown) => void variables.set(name, value),
  } as unknown as DelegateExecution & { variables: Map<string, unknown> };
}

describe('DelegateRegistry', () => {
  it('resolves classes registered as a function, an execute object or a notify object', async () => {
    const calls: string[] = [];
    const registry = new DelegateRegistry()
      .registerClass('com.example.Fn', (execution) => execution.setVariable('fn', true))
      .registerClass('com.example.Execute', {
        prefix: 'exec',
        execute(execution) {
          calls.push(`${this.prefix}:${String(execution.getVariable('fn'))}`);
          return 'done';
        },
      } as { prefix: string; execute: (execution: DelegateExecution) => unknown })
      .registerClass('com.example.Notify', { notify: async () => void calls.push('notify') });

    const execution = fakeExecution();
    await registry.resolveClass('com.example.Fn')(execution);
    expect(await registry.resolveClass('com.example.Execute')(execution)).toBe('done');
    await registry.resolveClass('com.example.Notify')(execution);
    expect(execution.variables.get('fn')).toBe(true);
    expect(calls).toEqual(['exec:true', 'notify']);
  });

  it('fails for an unregistered class with Camunda\'s message', () => {
    const registry = new DelegateRegistry();
    let caught: unknown;
    try {
      registry.resolveClass('com.example.Foo');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ClassNotFoundError);
    expect(ProcessEngineException.is(caught)).toBe(true);
    expect((caught as Error).message).toBe(
      "ENGINE-09008 Exception while instantiating class 'com.example.Foo': ENGINE-09017 Cannot load class 'com.example.Foo': com.example.Foo",
    );
    expect((caught as ClassNotFoundError).className).toBe('com.example.Foo');
  });

  it('refuses to register something it could never invoke', () => {
    expect(() => new DelegateRegistry().registerClass('com.example.Bad', {} as never)).toThrow(TypeError);
  });

  it('keeps beans by name', () => {
    const pricing = { rate: (net: number) => net * 0.2 };
    const registry = new DelegateRegistry().registerBean('pricing', pricing).registerBean('nothing', null);
    expect(registry.bean('pricing')).toBe(pricing);
    expect(registry.hasBean('pricing')).toBe(true);
    expect(registry.hasBean('nothing')).toBe(true);
    expect(registry.hasBean('other')).toBe(false);
    expect(registry.bean('other')).toBeUndefined();
    expect(registry.beanNames()).toEqual(['pricing', 'nothing']);
  });
});

describe('invokeDelegate', () => {
  it('calls a function, an execute method or a notify method with the execution', async () => {
    const execution = fakeExecution();
    expect(await invokeDelegate((e: DelegateExecution) => e.setVariable('a', 1), execution, '${fn}')).toBeUndefined();
    const bean = {
      factor: 3,
      execute(e: DelegateExecution) {
        e.setVariable('b', this.factor);
        return 'executed';
      },
    };
    expect(await invokeDelegate(bean, execution, '${bean}')).toBe('executed');
    await invokeDelegate({ notify: async (e: DelegateExecution) => e.setVariable('c', 2) }, execution, '${listener}');
    expect(Object.fromEntries(execution.variables)).toEqual({ a: 1, b: 3, c: 2 });
  });

  it('lets errors of the delegate through unchanged', async () => {
    const failure = new Error('delegate failed');
    await expect(
      invokeDelegate(
        () => {
          throw failure;
        },
        fakeExecution(),
        '${fn}',
      ),
    ).rejects.toBe(failure);
  });

  it("fails for a value that is not invokable, in Camunda's words", async () => {
    for (const target of [42, 'text', null, undefined, { run: () => 1 }]) {
      await expect(invokeDelegate(target, fakeExecution(), '${myBean}')).rejects.toThrow(
        "ENGINE-02033 Delegate Expression '${myBean}' did neither resolve to an implementation of 'interface org.camunda.bpm.engine.delegate.ExecutionListener' nor 'interface org.camunda.bpm.engine.delegate.JavaDelegate'.",
      );
    }
    await expect(invokeDelegate({}, fakeExecution(), '${task}', 'activity')).rejects.toThrow(
      "'interface org.camunda.bpm.engine.impl.pvm.delegate.ActivityBehavior' nor 'interface org.camunda.bpm.engine.delegate.JavaDelegate'",
    );
  });
});
