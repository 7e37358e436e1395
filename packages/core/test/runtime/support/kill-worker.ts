// A workload that runs until it is killed: started by kill-mid-run.test.ts with the store as JSON in argv[2].
// It starts instances of a fork/join model and completes the tasks of earlier ones, printing each committed command.
import { createEngine } from '../../../src/index.js';
import { forkJoinModel } from './kill-model.js';

const store = JSON.parse(process.argv[2]);
const engine = await createEngine({ store, logLevel: 'error', jobExecutor: { activate: false } });
const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'fork.bpmn', bytes: Buffer.from(forkJoinModel) }] });
const definitionId = processDefinitions![0].id;
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  await engine.runtime.startProcessInstanceById(definitionId, { variables: { n: { type: 'integer', value: i, valueInfo: {} } } });
  process.stdout.write('started\n');
  const [task] = await engine.task.findTasks({ maxResults: 1 });
  if (task && i % 2 === 0) {
    await engine.task.complete(task.id, { done: { type: 'boolean', value: true, valueInfo: {} } });
    process.stdout.write('completed\n');
  }
}
