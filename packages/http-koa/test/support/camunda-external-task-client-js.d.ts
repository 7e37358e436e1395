/** The little of camunda-external-task-client-js (an untyped ES module) that the tests use. */
declare module 'camunda-external-task-client-js' {
  export interface TypedVariable {
    type: string;
    value: unknown;
    valueInfo: Record<string, unknown>;
  }
  export class Variables {
    get(name: string): any;
    getTyped(name: string): TypedVariable;
    getAll(): Record<string, any>;
    getAllTyped(): Record<string, TypedVariable>;
    set(name: string, value: unknown): Variables;
    setTyped(name: string, typed: Partial<TypedVariable>): Variables;
    setAll(values: Record<string, unknown>): Variables;
  }
  export interface Task {
    id: string;
    processInstanceId: string;
    workerId: string;
    topicName: string;
    lockExpirationTime: string;
    variables: Variables;
    [field: string]: unknown;
  }
  export interface TaskService {
    complete(task: Task, variables?: Variables, localVariables?: Variables): Promise<void>;
    handleFailure(task: Task, options?: { errorMessage?: string; errorDetails?: string; retries?: number; retryTimeout?: number }): Promise<void>;
    handleBpmnError(task: Task, errorCode: string, errorMessage?: string, variables?: Variables): Promise<void>;
    extendLock(task: Task, newDuration: number): Promise<void>;
    unlock(task: Task): Promise<void>;
    lock(task: Task, duration: number): Promise<void>;
  }
  export interface ClientOptions {
    baseUrl: string;
    workerId?: string;
    maxTasks?: number;
    interval?: number;
    lockDuration?: number;
    autoPoll?: boolean;
    asyncResponseTimeout?: number;
    usePriority?: boolean;
    interceptors?: unknown;
    use?: unknown;
  }
  export class Client {
    constructor(options: ClientOptions);
    subscribe(topic: string, handler: (args: { task: Task; taskService: TaskService }) => unknown): { unsubscribe(): void };
    subscribe(topic: string, options: Record<string, unknown>, handler: (args: { task: Task; taskService: TaskService }) => unknown): { unsubscribe(): void };
    start(): void;
    stop(): void;
    on(event: string, listener: (...args: any[]) => void): this;
  }
  export class BasicAuthInterceptor {
    constructor(options: { username: string; password: string });
  }
}
