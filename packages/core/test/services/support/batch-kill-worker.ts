// An engine node that runs batch jobs until it is killed: started by batch-kill.test.ts with the store as JSON in argv[2].
import { createEngine } from '../../../src/index.js';

const store = JSON.parse(process.argv[2]);
await createEngine({ store, logLevel: 'error', jobExecutor: { activate: true, waitTimeMs: 20, lockTimeMs: 2_000, maxJobsPerAcquisition: 5 } });
process.stdout.write('ready\n');
setInterval(() => {}, 60_000); // the job executor's timers do not hold the process open
