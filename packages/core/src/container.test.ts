import { describe, expect, it } from 'vitest';
import { FixedClock } from './clock.js';
import { resolveConfig } from './config.js';
import { createContainer } from './container.js';
import { JobExecutor } from './jobs/job-executor.js';
import { uuidGenerator } from './id-generator.js';
import { consoleLogger } from './logger.js';
import { Store } from './persistence/store.js';
import { DeploymentService } from './services/deployment/deployment-service.js';
import { ProcessDefinitionService } from './services/process-definition/process-definition-service.js';

describe('createContainer', () => {
  it('wires every service as a singleton of its engine', async () => {
    const config = resolveConfig({});
    const store = Store.open(config.store);
    const container = createContainer({ config, store, clock: new FixedClock(0), idGenerator: uuidGenerator, logger: consoleLogger('silent') });

    expect(container.get(DeploymentService)).toBe(container.get(DeploymentService));
    expect(container.get(ProcessDefinitionService)).toBeInstanceOf(ProcessDefinitionService);
    expect(container.get(JobExecutor).lockOwner).toMatch(/:/);
    await store.close();
  });
});
