import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { ExternalTaskService } from '../../external-task/external-task-service.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';

export interface SetExternalTaskRetriesSettings {
  retries: number;
}

/** set-external-task-retries: sets each task's retries as PUT /external-task/{id}/retries does (incidents included). */
@injectable()
export class SetExternalTaskRetriesJobHandler extends BatchExecutionJobHandler<SetExternalTaskRetriesSettings> {
  readonly type = BatchTypes.setExternalTaskRetries;

  constructor(@inject(ExternalTaskService) private readonly externalTasks: ExternalTaskService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: SetExternalTaskRetriesSettings): Promise<void> {
    for (const id of ids) await this.externalTasks.setRetriesIn(ctx, id, settings.retries);
  }
}
