/**
 * The host application's stand-ins for what BPMN models name as Java code: `camunda:class`
 * resolves to a registered JavaScript delegate, and beans (`${myBean.doIt(execution)}`,
 * `camunda:delegateExpression="${myBean}"`) resolve to registered objects or functions.
 */
import { ProcessEngineException } from '../../errors/exceptions.js';
import { BUILT_IN_CONNECTORS, ConnectorException, type Connector } from './http-connector.js';

/** What a delegate receives: the execution facade (getVariable, setVariable, getId, getProcessInstanceId, getCurrentActivityId, getBusinessKey …). Kept structural here. */
export type DelegateExecution = Record<string, unknown> & {
  getId(): string;
  getProcessInstanceId(): string;
  getProcessDefinitionId(): string;
  getBusinessKey(): string | null;
  getCurrentActivityId(): string | null;
  getActivityInstanceId(): string | null;
  getTenantId(): string | null;
  getVariable(name: string): unknown;
  getVariableLocal(name: string): unknown;
  hasVariable(name: string): boolean;
  setVariable(name: string, value: unknown): void;
  setVariableLocal(name: string, value: unknown): void;
  removeVariable(name: string): void;
  getVariables(): Record<string, unknown>;
  getVariablesLocal(): Record<string, unknown>;
  setVariables(values: Record<string, unknown>): void;
  /** The event of the execution listener running (start, end, take); null in a delegate. */
  getEventName(): string | null;
  getCurrentActivityName(): string | null;
  /** The sequence flow a take listener runs for; null otherwise. */
  getCurrentTransitionId(): string | null;
};
export type JavaDelegate = (execution: DelegateExecution) => unknown | Promise<unknown>;
export type ExecutionListener = (execution: DelegateExecution) => unknown | Promise<unknown>;

/** Camunda's VariableMap, as far as a variable mapping uses it: plain values in and out. */
export interface VariableMap {
  putValue(name: string, value: unknown): VariableMap;
  put(name: string, value: unknown): unknown;
  get(name: string): unknown;
  getValue(name: string): unknown;
  containsKey(name: string): boolean;
  remove(name: string): unknown;
  keySet(): string[];
}

/** Camunda's VariableScope: the variables of the called instance a variable mapping reads. */
export type VariableScope = Pick<
  DelegateExecution,
  'getVariable' | 'getVariableLocal' | 'hasVariable' | 'getVariables' | 'getVariablesLocal' | 'setVariable' | 'setVariableLocal' | 'setVariables' | 'removeVariable'
> & { getVariableNames(): string[] };

/**
 * Camunda's DelegateVariableMapping (camunda:variableMappingClass / …DelegateExpression on a call
 * activity): mapInputVariables adds to the called instance's variables as it starts,
 * mapOutputVariables sets the caller's from the called instance as it ends.
 */
export interface DelegateVariableMapping {
  mapInputVariables(superExecution: DelegateExecution, subVariables: VariableMap): unknown;
  mapOutputVariables(superExecution: DelegateExecution, subInstance: VariableScope): unknown;
}

/** What `registerClass` accepts: a function, or an object shaped like a JavaDelegate, an ExecutionListener or a DelegateVariableMapping. */
export type ClassDelegate = JavaDelegate | { execute: JavaDelegate } | { notify: ExecutionListener } | DelegateVariableMapping;

/** The Java interfaces Camunda names when a delegate expression yields nothing it can invoke (their `Class.toString()`). */
const DELEGATE_PARENT_INTERFACES = {
  listener: 'interface org.camunda.bpm.engine.delegate.ExecutionListener',
  activity: 'interface org.camunda.bpm.engine.impl.pvm.delegate.ActivityBehavior',
} as const;
const JAVA_DELEGATE_INTERFACE = 'interface org.camunda.bpm.engine.delegate.JavaDelegate';

/**
 * A model names a class no delegate was registered for. Camunda reports this as a plain
 * ProcessEngineException (the REST body's `type`), so the name stays that; the message is Camunda's.
 */
export class ClassNotFoundError extends ProcessEngineException {
  override readonly name: string = 'ProcessEngineException';

  constructor(readonly className: string) {
    super(`ENGINE-09008 Exception while instantiating class '${className}': ENGINE-09017 Cannot load class '${className}': ${className}`);
  }
}

/** Registered class delegates and beans of one engine. */
export class DelegateRegistry {
  /** The delegates as registered (an object keeps its methods for field injection). */
  private readonly classes = new Map<string, ClassDelegate>();
  private readonly beans = new Map<string, unknown>();
  /** Connectors the host registered (the built-in ones are used where none is registered). */
  private readonly connectors = new Map<string, Connector>();

  /** Registers the implementation of a Java class name (camunda:class); replaces an earlier registration. */
  registerClass(className: string, delegate: ClassDelegate): this {
    if (!asInvocable(delegate) && !isVariableMapping(delegate)) {
      throw new TypeError(`The delegate for class '${className}' must be a function or an object with execute(execution), notify(execution) or mapInputVariables and mapOutputVariables`);
    }
    this.classes.set(className, delegate);
    return this;
  }

  /** Registers a bean: any object or function, reachable by name from expressions and delegate expressions. */
  registerBean(name: string, bean: unknown): this {
    this.beans.set(name, bean);
    return this;
  }

  /**
   * Registers the connector of a camunda:connectorId (the connect plugin's connectors, a function
   * from the request's parameters to the response's); replaces a built-in one of the same id.
   */
  registerConnector(connectorId: string, connector: Connector): this {
    if (typeof connector !== 'function') throw new TypeError(`The connector '${connectorId}' must be a function of the request parameters`);
    this.connectors.set(connectorId, connector);
    return this;
  }

  /** The connector of an id: registered, else built in (http-connector, soap-http-connector). */
  connector(connectorId: string): Connector {
    const connector = this.connectors.get(connectorId) ?? (Object.hasOwn(BUILT_IN_CONNECTORS, connectorId) ? BUILT_IN_CONNECTORS[connectorId] : undefined);
    if (!connector) throw new ConnectorException(`No connector found for connector id '${connectorId}'`);
    return connector;
  }

  /** The delegate registered for a class name, as a function of the execution (not for a variable mapping only). */
  resolveClass(className: string): JavaDelegate {
    const invocable = asInvocable(this.registeredClass(className));
    if (!invocable) throw new ProcessEngineException(`Class '${className}' is registered as a variable mapping, not as a delegate`);
    return invocable;
  }

  /** The delegate of a class name as registered (a function or an object), for field injection. */
  registeredClass(className: string): ClassDelegate {
    const delegate = this.classes.get(className);
    if (!delegate) throw new ClassNotFoundError(className);
    return delegate;
  }

  bean(name: string): unknown | undefined {
    return this.beans.get(name);
  }

  hasBean(name: string): boolean {
    return this.beans.has(name);
  }

  /** Whether nothing is registered: then no host code runs inside a command (see CallScope.runCommand). */
  get empty(): boolean {
    return this.classes.size === 0 && this.beans.size === 0 && this.connectors.size === 0;
  }

  beanNames(): string[] {
    return [...this.beans.keys()];
  }
}

/**
 * Invokes what a camunda:delegateExpression evaluated to: a function, or an object with
 * execute(execution) (a JavaDelegate) or notify(execution) (an ExecutionListener). Errors the
 * delegate throws (a BpmnError among them) propagate unchanged. `role` only picks the interface
 * Camunda's error message names: ExecutionListener for listeners (the default), ActivityBehavior
 * for service tasks and other activities.
 */
export async function invokeDelegate(
  target: unknown,
  execution: DelegateExecution,
  expressionText: string,
  role: keyof typeof DELEGATE_PARENT_INTERFACES = 'listener',
): Promise<unknown> {
  const invocable = asInvocable(target);
  if (!invocable) {
    // Camunda 7's BpmnBehaviorLogger wording (ENGINE-02033) for a delegate expression that yields neither kind.
    throw new ProcessEngineException(
      `ENGINE-02033 Delegate Expression '${expressionText}' did neither resolve to an implementation of '${DELEGATE_PARENT_INTERFACES[role]}' nor '${JAVA_DELEGATE_INTERFACE}'.`,
    );
  }
  return invocable(execution);
}

/**
 * Camunda's field injection (camunda:field) for a JavaScript delegate: an object delegate is
 * invoked as a fresh object whose prototype it is, with the fields as own properties; a function
 * delegate is called with the fields as `this`. Without fields, the delegate itself.
 */
export function withFields(delegate: unknown, fields: Record<string, unknown> | null): unknown {
  if (fields === null) return delegate;
  if (typeof delegate === 'function') return (execution: DelegateExecution) => Reflect.apply(delegate, fields, [execution]) as unknown;
  if (typeof delegate === 'object' && delegate !== null) return Object.assign(Object.create(delegate) as object, fields);
  return delegate;
}

/** Whether a value can serve as a DelegateVariableMapping. */
export const isVariableMapping = (value: unknown): value is DelegateVariableMapping =>
  typeof value === 'object' && value !== null && typeof (value as DelegateVariableMapping).mapInputVariables === 'function' && typeof (value as DelegateVariableMapping).mapOutputVariables === 'function';

/** A function of the execution for a delegate in any accepted form; methods keep their object as `this`. */
function asInvocable(delegate: unknown): JavaDelegate | undefined {
  if (typeof delegate === 'function') return delegate as JavaDelegate;
  if (typeof delegate !== 'object' || delegate === null) return undefined;
  const { execute, notify } = delegate as { execute?: unknown; notify?: unknown };
  if (typeof execute === 'function') return (execution) => Reflect.apply(execute, delegate, [execution]) as unknown;
  if (typeof notify === 'function') return (execution) => Reflect.apply(notify, delegate, [execution]) as unknown;
  return undefined;
}
