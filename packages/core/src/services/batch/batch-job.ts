import type { Job } from '../../jobs/job.js';
import { BATCH_MONITOR_JOB, BATCH_SEED_JOB } from './batch.js';

/**
 * The batch a job belongs to (Camunda's JobDto.batchId), or null: seed and monitor jobs carry the
 * batch id as their configuration, execution jobs a JSON configuration starting with it.
 */
export function batchIdOfJob(job: Pick<Job, 'handlerType' | 'handlerConfiguration'>): string | null {
  const configuration = job.handlerConfiguration;
  if (configuration === null) return null;
  if (job.handlerType === BATCH_SEED_JOB || job.handlerType === BATCH_MONITOR_JOB) return configuration;
  if (!configuration.startsWith('{"batchId":')) return null;
  try {
    const batchId = (JSON.parse(configuration) as { batchId?: unknown }).batchId;
    return typeof batchId === 'string' ? batchId : null;
  } catch {
    return null;
  }
}
