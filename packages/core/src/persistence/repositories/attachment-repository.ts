import type { Selectable, Transaction } from 'kysely';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import type { AttachmentTable, StoreSchema } from '../schema.js';
import { toDate } from './query-support.js';

/** An attachment of a task (Camunda's Attachment): a link (url) or uploaded content. */
export interface Attachment {
  id: string;
  name: string | null;
  description: string | null;
  type: string | null;
  taskId: string | null;
  processInstanceId: string | null;
  rootProcessInstanceId: string | null;
  url: string | null;
  createTime: Date;
  /** Its own (set-removal-time) or its process instance's. */
  removalTime: Date | null;
}

/** Attachments, within one transaction. */
export class AttachmentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(attachment: Omit<Attachment, 'removalTime'>, content: Buffer | null): Promise<void> {
    await this.trx
      .insertInto('trellis_attachment')
      .values({
        id: attachment.id,
        name: attachment.name,
        description: attachment.description,
        type: attachment.type,
        task_id: attachment.taskId,
        proc_inst_id: attachment.processInstanceId,
        root_proc_inst_id: attachment.rootProcessInstanceId,
        url: attachment.url,
        content,
        create_time: attachment.createTime.getTime(),
        removal_time: null,
      })
      .execute();
  }

  /** A task's attachments, oldest first. */
  async findByTask(taskId: string): Promise<Attachment[]> {
    const rows = await this.select().where('a.task_id', '=', taskId).orderBy('a.create_time').orderBy('a.id').execute();
    return rows.map(toAttachment);
  }

  async findByTaskAndId(taskId: string, id: string): Promise<Attachment | null> {
    const row = await this.select().where('a.task_id', '=', taskId).where('a.id', '=', id).executeTakeFirst();
    return row ? toAttachment(row) : null;
  }

  /** The uploaded content of a task's attachment; null when there is none (a link, or no such attachment). */
  async contentOf(taskId: string, id: string): Promise<Buffer | null> {
    const row = await this.trx.selectFrom('trellis_attachment').select('content').where('task_id', '=', taskId).where('id', '=', id).executeTakeFirst();
    return row?.content ? Buffer.from(row.content) : null;
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_attachment').where('id', '=', id).execute();
  }

  private select() {
    return this.trx
      .selectFrom('trellis_attachment as a')
      .select(['a.id', 'a.name', 'a.description', 'a.type', 'a.task_id', 'a.proc_inst_id', 'a.root_proc_inst_id', 'a.url', 'a.create_time'])
      .select(inheritedRemovalTime('trellis_attachment', 'a'));
  }
}

type AttachmentRow = Omit<Selectable<AttachmentTable>, 'content' | 'removal_time'> & { inherited_removal_time: number | null };

function toAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    type: row.type,
    taskId: row.task_id,
    processInstanceId: row.proc_inst_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    url: row.url,
    createTime: toDate(row.create_time),
    removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
  };
}
