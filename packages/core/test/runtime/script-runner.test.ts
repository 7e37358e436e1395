import { describe, expect, it } from 'vitest';
import { isJavaScriptFormat, runScript, ScriptEvaluationError } from '../../src/runtime/scripting/script-runner.js';

function captureError(fn: () => unknown): ScriptEvaluationError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ScriptEvaluationError);
    return error as ScriptEvaluationError;
  }
  throw new Error('expected the script to fail');
}

describe('runScript', () => {
  it('returns the value of the last expression statement, as host values', () => {
    expect(runScript('const a = 2; a * 21', 'javascript', {})).toBe(42);
    const list = runScript('[1, 2].map(n => n * 2)', 'JavaScript', {});
    expect(list).toBeInstanceOf(Array);
    expect(list).toEqual([2, 4]);
    const record = runScript('({ total: amount + 1, when: new Date(0) })', 'js', { amount: 9 }) as { total: number; when: Date };
    expect(record).toBeInstanceOf(Object);
    expect(record.total).toBe(10);
    expect(record.when).toBeInstanceOf(Date);
  });

  it('lets the script call binding functions; values reach the host as host values', () => {
    const variables = new Map<string, unknown>([['amount', 5]]);
    const execution = {
      getVariable: (name: string) => variables.get(name),
      setVariable: (name: string, value: unknown) => void variables.set(name, value),
    };
    runScript("execution.setVariable('doubled', execution.getVariable('amount') * 2); execution.setVariable('items', [1, { a: 1 }])", 'javascript', {
      execution,
    });
    expect(variables.get('doubled')).toBe(10);
    expect(variables.get('items')).toBeInstanceOf(Array);
    expect(variables.get('items')).toEqual([1, { a: 1 }]);
  });

  it('keeps the method receiver of class-based bindings', () => {
    class Counter {
      #count = 0;
      increment(): number {
        return ++this.#count;
      }
    }
    const counter = new Counter();
    expect(runScript('counter.increment(); counter.increment()', 'javascript', { counter })).toBe(2);
  });

  it('offers no require, process or host globals', () => {
    expect(runScript('typeof require', 'javascript', {})).toBe('undefined');
    expect(runScript('typeof process', 'javascript', {})).toBe('undefined');
    expect(runScript('typeof setTimeout + typeof Buffer', 'javascript', {})).toBe('undefinedundefined');
    expect(runScript('JSON.stringify({ max: Math.max(1, 3), n: parseInt("7") })', 'javascript', {})).toBe('{"max":3,"n":7}');
  });

  it('refuses eval and new Function', () => {
    expect(captureError(() => runScript("eval('1 + 1')", 'javascript', {})).message).toMatch(/Code generation from strings disallowed/);
    expect(captureError(() => runScript("new Function('return 1')()", 'javascript', {})).message).toMatch(/Code generation from strings disallowed/);
  });

  it('rejects dynamic import', async () => {
    const promise = runScript("import('node:fs')", 'javascript', {}) as Promise<unknown>;
    await expect(promise).rejects.toBeDefined();
  });

  it('stops an endless loop after the timeout', () => {
    const started = Date.now();
    const error = captureError(() => runScript('while (true) {}', 'javascript', {}, { timeoutMs: 50 }));
    expect(error.message).toMatch(/timed out after 50ms/);
    expect(error.cause).toBeDefined();
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("names an unsupported format as Camunda does", () => {
    expect(captureError(() => runScript('1', 'groovy', {})).message).toBe("Can't find scripting engine for 'groovy'");
  });

  it('reports syntax errors and thrown errors with their message and keeps the cause', () => {
    const syntax = captureError(() => runScript('let = ;', 'javascript', {}));
    expect(syntax.message).toMatch(/^SyntaxError: /);
    expect(syntax.cause).toBeInstanceOf(SyntaxError);

    const thrown = captureError(() => runScript("throw new Error('boom')", 'javascript', {}));
    expect(thrown.message).toBe('boom');
    expect((thrown.cause as Error).message).toBe('boom');

    const reference = captureError(() => runScript('missing + 1', 'javascript', {}));
    expect(reference.message).toBe('ReferenceError: missing is not defined');
  });

  it('runs a cached script again with fresh bindings and a fresh context', () => {
    expect(runScript('globalThis.seen = (typeof seen === "undefined") ? n : -1; seen', 'javascript', { n: 1 })).toBe(1);
    expect(runScript('globalThis.seen = (typeof seen === "undefined") ? n : -1; seen', 'javascript', { n: 2 })).toBe(2);
  });
});

describe('isJavaScriptFormat', () => {
  it('accepts javascript, js and ecmascript in any case', () => {
    for (const format of ['javascript', 'JavaScript', 'js', 'JS', 'ecmascript', 'ECMAScript']) expect(isJavaScriptFormat(format)).toBe(true);
    for (const format of ['groovy', 'python', 'juel', '']) expect(isJavaScriptFormat(format)).toBe(false);
  });
});
