import { injectable } from 'inversify';
import type { CommandContext } from '../../command/command-context.js';
import type { Job } from '../../jobs/job.js';
import type { JobHandler } from '../../jobs/job-handler.js';
import { UpdateProcessDefinitionSuspensionStateCmd, type SuspensionTarget } from './update-suspension-state-cmd.js';

/** What a scheduled suspension or activation job carries. */
export interface TimerSuspensionConfiguration {
  target: SuspensionTarget;
  includeProcessInstances: boolean;
}

/** Camunda's handler type names for scheduled definition state changes. */
export const ACTIVATE_PROCESS_DEFINITION = 'activate-processdefinition';
export const SUSPEND_PROCESS_DEFINITION = 'suspend-processdefinition';

abstract class TimerSuspensionHandler implements JobHandler {
  abstract readonly type: string;
  protected abstract readonly suspended: boolean;

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const configuration = JSON.parse(job.handlerConfiguration ?? '{}') as TimerSuspensionConfiguration;
    await new UpdateProcessDefinitionSuspensionStateCmd(configuration.target, {
      suspended: this.suspended,
      includeProcessInstances: configuration.includeProcessInstances,
    }).execute(ctx);
  }
}

@injectable()
export class TimerActivateProcessDefinitionHandler extends TimerSuspensionHandler {
  readonly type = ACTIVATE_PROCESS_DEFINITION;
  protected readonly suspended = false;
}

@injectable()
export class TimerSuspendProcessDefinitionHandler extends TimerSuspensionHandler {
  readonly type = SUSPEND_PROCESS_DEFINITION;
  protected readonly suspended = true;
}
