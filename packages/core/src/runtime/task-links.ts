import type { CommandContext } from '../command/command-context.js';
import { TaskHistory } from '../history/task-history.js';
import { grantTaskDefault } from '../services/authorization/default-authorizations.js';
import type { Task, TaskCandidates, TaskIdentityLink } from '../services/task/task.js';

/** A new task's candidates, which its create listeners change in place. */
type CreatingCandidates = { -readonly [K in keyof TaskCandidates]: string[] };

type Link = Omit<TaskIdentityLink, 'taskId'>;

/** Camunda's IdentityLinkType.CANDIDATE. */
export const CANDIDATE = 'candidate';

/**
 * A task's identity links as its listeners see and change them (Camunda's TaskEntity.addIdentityLink
 * and deleteIdentityLink). Listeners run synchronously, so changes are kept here and written after
 * them, in the order made. A task being created has no row yet: its candidates are changed in
 * place (its creator inserts them with it), and its other links are written after the insert.
 */
export class ListenerTaskLinks {
  private readonly changes: Array<{ link: Link; add: boolean }> = [];

  private constructor(
    private readonly stored: Link[],
    private readonly creating: CreatingCandidates | null,
  ) {}

  /** The links of a task being created: its candidates, changed in place. */
  static creating(candidates: CreatingCandidates): ListenerTaskLinks {
    return new ListenerTaskLinks([], candidates);
  }

  /** The stored links of an existing task. */
  static async of(ctx: CommandContext, taskId: string): Promise<ListenerTaskLinks> {
    return new ListenerTaskLinks(await ctx.tasks.findLinks(taskId), null);
  }

  /** Camunda's getCandidates: the links of type candidate. */
  candidates(): Link[] {
    if (this.creating) {
      return [...this.creating.users.map((userId) => ({ userId, groupId: null, type: CANDIDATE })), ...this.creating.groups.map((groupId) => ({ userId: null, groupId, type: CANDIDATE }))];
    }
    return this.stored.filter((link) => link.type === CANDIDATE);
  }

  /** Adds a link; one the task has already is added again, as Camunda does. */
  add(link: Link): void {
    const candidates = this.creatingCandidates(link);
    if (candidates) candidates.push((link.userId ?? link.groupId)!);
    else this.change(link, true);
  }

  /** Removes the task's links of this user or group and type. */
  delete(link: Link): void {
    const candidates = this.creatingCandidates(link);
    if (!candidates) return this.change(link, false);
    const id = (link.userId ?? link.groupId)!;
    for (let index = candidates.indexOf(id); index >= 0; index = candidates.indexOf(id)) candidates.splice(index, 1);
  }

  /** Writes the changes with their history and (on adding) default grants, as Camunda's identity link commands do. */
  async flush(ctx: CommandContext, task: Task): Promise<void> {
    for (const { link, add } of this.changes.splice(0)) {
      if (add) {
        await ctx.tasks.addLink(task.id, link.userId, link.groupId, link.type);
        const to = link.userId !== null ? { userId: link.userId } : link.groupId !== null ? { groupId: link.groupId } : null;
        if (to) await grantTaskDefault(ctx, task, to, 'identityLink');
        await TaskHistory.linkChanged(ctx, task, link.type, link.userId, link.groupId, 'add');
      } else {
        const removed = await ctx.tasks.deleteLink(task.id, link.userId, link.groupId, link.type);
        for (let i = 0; i < removed; i++) await TaskHistory.linkChanged(ctx, task, link.type, link.userId, link.groupId, 'delete');
      }
    }
  }

  /** The candidate list a creating task's link belongs in; null when it is written later. */
  private creatingCandidates(link: Link): string[] | null {
    if (!this.creating || link.type !== CANDIDATE) return null;
    if (link.userId !== null) return this.creating.users;
    return link.groupId !== null ? this.creating.groups : null;
  }

  private change(link: Link, add: boolean): void {
    this.changes.push({ link, add });
    if (add) this.stored.push(link);
    else this.stored.splice(0, this.stored.length, ...this.stored.filter((each) => !sameLink(each, link)));
  }
}

const sameLink = (a: Link, b: Link) => a.userId === b.userId && a.groupId === b.groupId && a.type === b.type;
