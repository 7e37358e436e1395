/**
 * Runs the JavaScript of a BPMN script (script task, camunda:script in listeners and input/output
 * parameters) in a fresh node:vm context per call.
 *
 * node:vm is NOT a security boundary against hostile script authors: any host object reachable from
 * the script (the bindings, the values their methods return) leads back to the host realm's
 * `Function` constructor, and a tight loop inside an awaited host call escapes the timeout. The
 * restrictions below keep honest scripts from reaching Node's APIs by accident; they do not contain
 * an attacker. That is why scripting is off by default in the engine configuration
 * (`scripting.enabled`), and hosts should enable it only for models they trust.
 */
import vm from 'node:vm';

export interface ScriptOptions {
  /** Wall-clock limit for the synchronous run of the script. Default 1000 ms. */
  timeoutMs?: number;
}

/** A script could not be compiled or run: unsupported language, syntax error, thrown error or timeout. */
export class ScriptEvaluationError extends Error {
  override readonly name: string = 'ScriptEvaluationError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }
}

/** A script that cannot even be compiled (a syntax error). */
export class ScriptCompilationError extends ScriptEvaluationError {
  override readonly name: string = 'ScriptCompilationError';
}

const JAVASCRIPT_FORMATS = new Set(['javascript', 'js', 'ecmascript']);

/** True for the script formats this runner executes: javascript, js, ecmascript (any case, so Camunda's 'JavaScript' too). */
export function isJavaScriptFormat(format: string): boolean {
  return JAVASCRIPT_FORMATS.has(format.trim().toLowerCase());
}

const DEFAULT_TIMEOUT_MS = 1000;
/** Compiled scripts are context-independent, so one compilation serves every run of the same text. */
const MAX_CACHED_SCRIPTS = 256;
const compiled = new Map<string, vm.Script>();

/**
 * Runs `source` with `bindings` as its globals and returns the value of its last expression
 * statement, converted to host-realm values (arrays, plain objects, dates, maps, sets, errors).
 * Besides the bindings the script sees only the ECMAScript built-ins of its own context (JSON, Math,
 * Date, String, Number, …): no `require`, `process`, timers or `console`, no `eval`/`new Function`,
 * no `import()`. Host built-ins are deliberately not copied in: their constructors would hand the
 * script the host's `Function`, which ignores the context's code-generation ban.
 */
export function runScript(source: string, format: string, bindings: Record<string, unknown>, options: ScriptOptions = {}): unknown {
  if (!isJavaScriptFormat(format)) throw new ScriptEvaluationError(`Can't find scripting engine for '${format}'`);
  const script = compile(source);

  const sandbox: Record<string, unknown> = Object.create(null);
  const bridged = new WeakMap<object, unknown>();
  for (const [name, value] of Object.entries(bindings)) sandbox[name] = bridge(value, bridged);
  const context = vm.createContext(sandbox, {
    name: 'bpmn-script',
    codeGeneration: { strings: false, wasm: false },
  });

  let result: unknown;
  try {
    result = script.runInContext(context, { timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, displayErrors: false });
  } catch (error) {
    throw new ScriptEvaluationError(describe(error), { cause: error });
  }
  return toHostValue(result);
}

function compile(source: string): vm.Script {
  const cached = compiled.get(source);
  if (cached) return cached;
  let script: vm.Script;
  try {
    script = new vm.Script(source, {
      filename: 'bpmn-script.js',
      importModuleDynamically: () => {
        throw new Error('import() is not available in BPMN scripts');
      },
    });
  } catch (error) {
    throw new ScriptCompilationError(describe(error), { cause: error });
  }
  if (compiled.size >= MAX_CACHED_SCRIPTS) compiled.delete(compiled.keys().next().value as string);
  compiled.set(source, script);
  return script;
}

/** "Name: message" for anything thrown, whichever realm it comes from. */
function describe(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'message' in error) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    const text = String(message);
    return typeof name === 'string' && name !== '' && name !== 'Error' ? `${name}: ${text}` : text;
  }
  return String(error);
}

// --- between the realms ---

/**
 * Makes host functions reachable from the script convert their arguments to host values, so that
 * `execution.setVariable('items', [1, 2])` stores a host array rather than one of the script's
 * realm (which would fail `instanceof Array` checks in the engine). Objects are wrapped in a proxy
 * whose methods do the same; data values pass through untouched.
 */
function bridge(value: unknown, bridged: WeakMap<object, unknown>): unknown {
  if (typeof value === 'function') return bridgeFunction(value as (...args: unknown[]) => unknown, undefined, bridged);
  if (typeof value !== 'object' || value === null || isDataObject(value)) return value;
  const existing = bridged.get(value);
  if (existing) return existing;
  const proxy = new Proxy(value, {
    get(target, property) {
      const member: unknown = Reflect.get(target, property, target);
      if (typeof member !== 'function') return member;
      const descriptor = Reflect.getOwnPropertyDescriptor(target, property);
      // A proxy must report frozen properties as they are.
      if (descriptor && !descriptor.configurable && !descriptor.writable) return member;
      return bridgeFunction(member as (...args: unknown[]) => unknown, target, bridged);
    },
  });
  bridged.set(value, proxy);
  return proxy;
}

function bridgeFunction(fn: (...args: unknown[]) => unknown, receiver: object | undefined, bridged: WeakMap<object, unknown>): unknown {
  // Wrappers of unbound functions are cached per function; methods get a fresh wrapper bound to their object.
  if (receiver === undefined) {
    const existing = bridged.get(fn);
    if (existing) return existing;
  }
  const wrapper = function (this: unknown, ...args: unknown[]): unknown {
    return Reflect.apply(fn, receiver ?? this, args.map((arg) => toHostValue(arg)));
  };
  if (receiver === undefined) bridged.set(fn, wrapper);
  return wrapper;
}

const DATA_TAGS = new Set(['[object Array]', '[object Date]', '[object Map]', '[object Set]', '[object RegExp]']);

function isDataObject(value: object): boolean {
  return DATA_TAGS.has(Object.prototype.toString.call(value)) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer;
}

/**
 * Copies values created by the script (another realm's arrays, plain objects, dates, maps, sets,
 * errors) into host-realm equivalents. Host objects and other kinds (promises, class instances,
 * functions) are returned as they are.
 */
export function toHostValue(value: unknown, seen: Map<object, unknown> = new Map()): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Object) return value;
  if (seen.has(value)) return seen.get(value);
  const tag = Object.prototype.toString.call(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value as unknown[]) copy.push(toHostValue(item, seen));
    return copy;
  }
  if (tag === '[object Date]') return new Date((value as Date).getTime());
  if (tag === '[object Map]') {
    const copy = new Map<unknown, unknown>();
    seen.set(value, copy);
    for (const [key, item] of value as Map<unknown, unknown>) copy.set(toHostValue(key, seen), toHostValue(item, seen));
    return copy;
  }
  if (tag === '[object Set]') {
    const copy = new Set<unknown>();
    seen.set(value, copy);
    for (const item of value as Set<unknown>) copy.add(toHostValue(item, seen));
    return copy;
  }
  if (tag === '[object Error]') {
    const { name, message } = value as Error;
    const copy = new Error(String(message), { cause: value });
    copy.name = String(name);
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  const plain = prototype === null || Object.getPrototypeOf(prototype) === null;
  if (!plain) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) copy[key] = toHostValue(item, seen);
  return copy;
}
