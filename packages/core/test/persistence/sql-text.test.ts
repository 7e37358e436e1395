import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/persistence/store.js';
import { testStoreConfigs } from '../../src/testing/test-stores.js';
import { joinText, rawText, sqlText } from '../../src/persistence/sql-text.js';
import { executeWrites, insertRows, updateRows } from '../../src/persistence/combined-writes.js';

describe('SqlText', () => {
  it('numbers its parameters for PostgreSQL and marks them for SQLite, nested text inlined in order', () => {
    const inner = sqlText`coalesce(${'a'}, ${'b'})`;
    const statement = sqlText`select ${1} as one, ${inner} as two, ${rawText('3')} as three where x in (${joinText(['p', sqlText`${'q'} || ${'r'}`, 's'])})`;
    expect(statement.render('postgres')).toBe('select $1 as one, coalesce($2, $3) as two, 3 as three where x in ($4, $5 || $6, $7)');
    expect(statement.render('sqlite')).toBe('select ? as one, coalesce(?, ?) as two, 3 as three where x in (?, ? || ?, ?)');
    expect(statement.parameters).toEqual([1, 'a', 'b', 'p', 'q', 'r', 's']);
  });

  it('renders a text once per store and prefix, and the same string comes back after', () => {
    const text = () => sqlText`select ${1} from t where y = ${'y'}`;
    const first = text().render('postgres', '/* a */ ');
    expect(first).toBe('/* a */ select $1 from t where y = $2');
    expect(text().render('postgres', '/* b */ ')).toBe('/* b */ select $1 from t where y = $2');
    expect(text().render('sqlite', '/* a */ ')).toBe('/* a */ select ? from t where y = ?');
    expect(text().render('postgres', '/* a */ ')).toBe(first);
  });

  it("refuses the query builder's SQL as a value (it would be sent as a parameter)", () => {
    expect(() => sqlText`select ${sql`1`}`).toThrow(/sqlText takes SqlText/);
  });

  it('built again from parts of the same shapes: the same text string, the new values as parameters in order', () => {
    const statement = (values: string[], extra: unknown) =>
      sqlText`select ${rawText('x')} from t where a in (${joinText(values.map((value) => sqlText`lower(${value})`))}) and b = ${extra}`;
    const first = statement(['p', 'q'], 1);
    const second = statement(['r', 's'], 2);
    const third = statement(['u', 'v', 'w'], 3);

    expect(second.text).toBe(first.text);
    expect(second.render('postgres')).toBe('select x from t where a in (lower($1), lower($2)) and b = $3');
    expect(first.parameters).toEqual(['p', 'q', 1]);
    expect(second.parameters).toEqual(['r', 's', 2]);
    expect(third.render('postgres')).toBe('select x from t where a in (lower($1), lower($2), lower($3)) and b = $4');
    expect(third.parameters).toEqual(['u', 'v', 'w', 3]);
  });

  it('a part that is SQL text in one statement and a parameter in the next makes a different text', () => {
    const statement = (value: unknown) => sqlText`select ${value} from t`;
    expect(statement(rawText('now()')).render('postgres')).toBe('select now() from t');
    expect(statement('now()').render('postgres')).toBe('select $1 from t');
    expect(statement('now()').parameters).toEqual(['now()']);
    expect(() => statement(sql`now()`)).toThrow(/sqlText takes SqlText/);
  });
});

describe.each(testStoreConfigs())('SqlText statements on $name', (testStore) => {
  const stores: Store[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });

  async function open(): Promise<Store> {
    const store = Store.open(testStore.config(expect.getState().currentTestName!));
    stores.push(store);
    await store.migrate(() => Date.now());
    return store;
  }

  const deployment = (id: string, name: unknown) => ({ id, name, source: null, deploy_time: 5, tenant_id: null });

  it('inserts and updates rows (SQL values inlined, plain values as parameters), alone and combined in one statement', async () => {
    const store = await open();
    await store.db.transaction().execute(async (trx) => {
      await executeWrites(trx, store.dialect, [insertRows('trellis_deployment', [deployment('d1', 'first'), deployment('d2', sqlText`${'sec'} || ${'ond'}`)])]);
      await executeWrites(trx, store.dialect, [
        updateRows('trellis_deployment', { name: sqlText`name || ${'!'}`, source: undefined }, sqlText`id in (${joinText(['d1', 'd2'])})`),
        insertRows('trellis_deployment', [deployment('d3', null)]),
        (db) => db.insertInto('trellis_deployment').values(deployment('d4', sqlText<string>`${'build'} || ${'er'}`) as never),
      ]);
    });
    const rows = await store.db.selectFrom('trellis_deployment').select(['id', 'name', 'deploy_time']).orderBy('id').execute();
    expect(rows.map((row) => [row.id, row.name, Number(row.deploy_time)])).toEqual([
      ['d1', 'first!', 5],
      ['d2', 'second!', 5],
      ['d3', null, 5],
      ['d4', 'builder', 5],
    ]);
  });
});
