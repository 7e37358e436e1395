import type { Selectable, Transaction } from 'kysely';
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
}

/** Comments, within one transaction. */
export class CommentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(comment: Comment): Promise<void> {
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
      })
      .execute();
  }

  async findByTask(taskId: string): Promise<Comment[]> {
    const rows = await this.trx.selectFrom('trellis_comment').selectAll().where('task_id', '=', taskId).orderBy('time', 'desc').orderBy('id').execute();
    return rows.map(toComment);
  }

  async findByProcessInstance(processInstanceId: string): Promise<Comment[]> {
    const rows = await this.trx.selectFrom('trellis_comment').selectAll().where('proc_inst_id', '=', processInstanceId).orderBy('time', 'desc').orderBy('id').execute();
    return rows.map(toComment);
  }
}

function toComment(row: Selectable<CommentTable>): Comment {
  return {
    id: row.id,
    userId: row.user_id,
    taskId: row.task_id,
    processInstanceId: row.proc_inst_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    time: toDate(row.time),
    message: row.full_message ?? row.message ?? '',
    tenantId: row.tenant_id,
  };
}
