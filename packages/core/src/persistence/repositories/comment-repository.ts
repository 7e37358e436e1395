import type { Selectable, Transaction } from 'kysely';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import type { CommentTable, StoreSchema } from '../schema.js';
import { toDate } from './query-support.js';

/** A comment on a task (and its process instance), Camunda's Comment. */
export interface Comment {
  id: string;
  userId: string | null;
  taskId: string | null;
  processInstanceId: string | null;
  rootProcessInstanceId: string | null;
  time: Date;
  message: string;
  tenantId: string | null;
  /** Its own (set-removal-time) or its process instance's. */
  removalTime: Date | null;
}

/** Comments, within one transaction. */
export class CommentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(comment: Omit<Comment, 'removalTime'>): Promise<void> {
    await this.trx
      .insertInto('trellis_comment')
      .values({
        id: comment.id,
        time: comment.time.getTime(),
        user_id: comment.userId,
        task_id: comment.taskId,
        proc_inst_id: comment.processInstanceId,
        root_proc_inst_id: comment.rootProcessInstanceId,
        message: comment.message.length > 163 ? `${comment.message.slice(0, 160)}...` : comment.message,
        full_message: comment.message,
        tenant_id: comment.tenantId,
        removal_time: null,
      })
      .execute();
  }

  async findById(id: string): Promise<Comment | null> {
    const row = await this.select().where('c.id', '=', id).executeTakeFirst();
    return row ? toComment(row) : null;
  }

  async findByTask(taskId: string): Promise<Comment[]> {
    const rows = await this.select().where('c.task_id', '=', taskId).orderBy('c.time', 'desc').orderBy('c.id').execute();
    return rows.map(toComment);
  }

  async findByProcessInstance(processInstanceId: string): Promise<Comment[]> {
    const rows = await this.select().where('c.proc_inst_id', '=', processInstanceId).orderBy('c.time', 'desc').orderBy('c.id').execute();
    return rows.map(toComment);
  }

  private select() {
    return this.trx.selectFrom('trellis_comment as c').selectAll('c').select(inheritedRemovalTime('trellis_comment', 'c'));
  }
}

function toComment(row: Selectable<CommentTable> & { inherited_removal_time: number | null }): Comment {
  return {
    id: row.id,
    userId: row.user_id,
    taskId: row.task_id,
    processInstanceId: row.proc_inst_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    time: toDate(row.time),
    message: row.full_message ?? row.message ?? '',
    tenantId: row.tenant_id,
    removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
  };
}
