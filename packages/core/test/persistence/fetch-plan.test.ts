import { CompiledQuery } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/persistence/store.js';
import { testStoreConfigs } from '../../src/testing/test-stores.js';
import { createTestEngine } from '../../src/testing/test-engine.js';
import { externalTaskProcessXml } from '../../src/testing/bpmn-builder.js';
import { recordStatements } from '../support/sent-statements.js';

// fetchAndLock by priority must not read a topic's whole backlog: PostgreSQL walks the
// (topic, priority) index and stops after maxTasks fetchable tasks. The statement checked here is
// the one the engine sends, captured on its way to the server, and planned (not run) afterwards.
// And locking what it picked rewrites no index entry (heap-only updates, migration 23).
const postgres = testStoreConfigs().find((store) => store.name === 'postgres');

const MODEL = externalTaskProcessXml('backlog', { activityId: 'task', taskAttributes: 'camunda:taskPriority="${priority}"' });

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const nodes = (plan: PlanNode): PlanNode[] => [plan, ...(plan.Plans ?? []).flatMap(nodes)];

describe.skipIf(!postgres)('fetchAndLock on PostgreSQL', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });

  it('by priority reads the topic index in priority order, without sorting the backlog', async () => {
    const config = postgres!.config('fetch-plan');
    const engine = await createTestEngine({ store: config });
    opened.push(engine);
    const store = Store.open(config);
    opened.push(store);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'backlog.bpmn', bytes: Buffer.from(MODEL) }] });
    for (let i = 0; i < 300; i++) {
      await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables: { priority: { type: 'integer', value: i % 7, valueInfo: {} } } });
    }
    await engine.externalTask.fetchAndLock({ workerId: 'first', maxTasks: 100, usePriority: true, topics: [{ topicName: 'backlog', lockDuration: 60_000 }] });
    await store.db.executeQuery(CompiledQuery.raw('analyze trellis_external_task'));

    const recorded = await recordStatements(() =>
      engine.externalTask.fetchAndLock({ workerId: 'second', maxTasks: 10, usePriority: true, topics: [{ topicName: 'backlog', lockDuration: 60_000 }] }),
    );
    const tasks = recorded.result;
    const sent = recorded.sent.filter((statement) => statement.text.includes('for update skip locked'));

    expect(tasks.map((task) => task.priority)).toEqual([...tasks.map((task) => task.priority)].sort((a, b) => b - a));
    expect(sent).toHaveLength(1);
    const statement = sent[0].text.replace(/^\/\*[^*]*\*\/\s*/, '');
    const [{ 'QUERY PLAN': [{ Plan: plan }] }] = (await store.db.executeQuery(CompiledQuery.raw(`explain (format json) ${statement}`, sent[0].values))).rows as Array<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>;
    const all = nodes(plan);
    expect(all.some((node) => node['Index Name'] === 'trellis_ext_task_topic_priority_idx')).toBe(true);
    expect(all.map((node) => node['Node Type'])).not.toContain('Sort');
  });

  it('locks tasks in place: no index covers what a lock changes, and pages leave room (heap-only updates)', async () => {
    const config = postgres!.config('fetch-in-place');
    const engine = await createTestEngine({ store: config });
    const store = Store.open(config);
    opened.push(store);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'backlog.bpmn', bytes: Buffer.from(MODEL) }] });
    for (let i = 0; i < 20; i++) {
      await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables: { priority: { type: 'integer', value: 1, valueInfo: {} } } });
    }
    const locked = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 10, topics: [{ topicName: 'backlog', lockDuration: 60_000 }] });
    // A server process reports its table statistics when its connection ends.
    await engine.close();
    const updates = async () => {
      await store.db.executeQuery(CompiledQuery.raw('select pg_stat_clear_snapshot()'));
      const { rows } = await store.db.executeQuery<{ updated: number; inPlace: number }>(
        CompiledQuery.raw(`select n_tup_upd as "updated", n_tup_hot_upd as "inPlace" from pg_stat_user_tables where relid = 'trellis_external_task'::regclass`),
      );
      return rows[0];
    };
    let counted = await updates();
    for (let tries = 0; Number(counted.updated) < locked.length && tries < 50; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      counted = await updates();
    }

    expect(locked).toHaveLength(10);
    expect(Number(counted.updated)).toBe(10);
    expect(Number(counted.inPlace)).toBe(10);
  });
});
