import { injectable } from 'inversify';

/** Engine events; each is published only after the command that caused it committed. */
export interface EngineEvents {
  'deployment.created': { deploymentId: string; processDefinitionIds: string[] };
  'deployment.deleted': { deploymentId: string };
  /** A job was created or became due earlier; job executors may want to look. */
  'job.created': { jobId: string; dueDate: Date | null };
  /** An external task was created or unlocked: long-polling fetches may find it now. */
  'externalTask.available': { topicName: string };
  /** A batch was created, progressed (jobs created, execution started), was suspended/activated, completed or deleted. */
  'batch.changed': { batchId: string; ended?: 'completed' | 'deleted' };
  /** The engine is closing (published at the start of close()): answer what waits on it, e.g. long polls. */
  'engine.closing': Record<string, never>;
}

type Listener<T> = (payload: T) => void;

/** A typed, in-process publish/subscribe bus. Listeners run synchronously; one failing does not stop the rest. */
@injectable()
export class EventBus<Events extends object = EngineEvents> {
  private readonly listeners = new Map<keyof Events, Set<Listener<never>>>();
  private errorSink: (error: unknown) => void = () => {};

  on<K extends keyof Events>(event: K, listener: Listener<Events[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  emit<K extends keyof Events>(event: K, payload: Events[K]): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as Listener<Events[K]>)(payload);
      } catch (error) {
        this.errorSink(error);
      }
    }
  }

  /** Where listener failures go (the engine's logger). */
  onListenerError(sink: (error: unknown) => void): void {
    this.errorSink = sink;
  }

  clear(): void {
    this.listeners.clear();
  }
}
