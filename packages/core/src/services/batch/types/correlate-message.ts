import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { MessageService } from '../../message/message-service.js';
import { BatchExecutionJobHandler, type ExecutionJobConfiguration } from '../batch-service.js';
import { BatchTypes } from '../batch.js';
import { loadBatchVariables } from '../batch-variables.js';

export interface CorrelateMessageSettings {
  /** null correlates a message of any name. */
  messageName: string | null;
}

/**
 * correlate-message: correlates the message to every waiting execution of each process instance, as
 * POST /message with `all` and a processInstanceId does (never to start events; no match is no error),
 * setting the batch variables on the instance first.
 */
@injectable()
export class CorrelateMessageJobHandler extends BatchExecutionJobHandler<CorrelateMessageSettings> {
  readonly type = BatchTypes.correlateMessage;

  constructor(@inject(MessageService) private readonly messages: MessageService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: CorrelateMessageSettings, { configuration }: { configuration: ExecutionJobConfiguration }): Promise<void> {
    const processVariables = await loadBatchVariables(ctx, configuration.batchId);
    for (const processInstanceId of ids) {
      await this.messages.correlateIn(ctx, { messageName: settings.messageName, processInstanceId, processVariables, all: true });
    }
  }
}
