/** A unit of asynchronous work, run by the job executor when due. */
export interface Job {
  id: string;
  type: 'timer' | 'message';
  handlerType: string;
  handlerConfiguration: string | null;
  dueDate: Date | null;
  lockOwner: string | null;
  lockExpirationTime: Date | null;
  retries: number;
  exceptionMessage: string | null;
  suspended: boolean;
  priority: number;
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  deploymentId: string | null;
  tenantId: string | null;
  createTime: Date;
  executionId: string | null;
  processInstanceId: string | null;
  activityId: string | null;
  jobDefinitionId: string | null;
  /** A repeating timer's cycle (see prepareRepeat); null for a timer that fires once and other jobs. */
  repeat: string | null;
  /** Milliseconds a cascading due date change moved a repeating timer's schedule by (Camunda's REPEAT_OFFSET_). */
  repeatOffset: number;
  exceptionStacktrace: string | null;
  failedActivityId: string | null;
  /** Exclusive jobs of one process instance never run at the same time (Camunda's default). */
  exclusive: boolean;
}

/** Camunda's default number of attempts of a job. */
export const DEFAULT_JOB_RETRIES = 3;

/** The fields a new job needs; the rest take defaults. */
export type NewJob = Pick<Job, 'type' | 'handlerType'> & Partial<Omit<Job, 'id' | 'createTime'>>;
