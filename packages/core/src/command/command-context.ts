import type { Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import type { ResolvedEngineConfig } from '../config.js';
import type { EngineEvents, EventBus } from '../events/event-bus.js';
import type { IdGenerator } from '../id-generator.js';
import type { DialectSeam } from '../persistence/dialect.js';
import { AuthorizationChecker } from '../authorization/authorization-checker.js';
import type { Authentication } from '../authorization/authorization.js';
import { TenantCheck } from '../authorization/tenant-check.js';
import { AuthorizationRepository } from '../persistence/repositories/authorization-repository.js';
import { GroupRepository } from '../persistence/repositories/group-repository.js';
import { ExecutionRepository } from '../persistence/repositories/execution-repository.js';
import { ProcessInstanceRepository } from '../persistence/repositories/process-instance-repository.js';
import { VariableRepository } from '../persistence/repositories/variable-repository.js';
import { TaskRepository } from '../persistence/repositories/task-repository.js';
import { UserRepository } from '../persistence/repositories/user-repository.js';
import { DeploymentRepository } from '../persistence/repositories/deployment-repository.js';
import { JobRepository } from '../persistence/repositories/job-repository.js';
import { EventSubscriptionRepository } from '../persistence/repositories/event-subscription-repository.js';
import { IncidentRepository } from '../persistence/repositories/incident-repository.js';
import { ExecutionQueryRepository } from '../persistence/repositories/execution-query-repository.js';
import { ExternalTaskRepository } from '../persistence/repositories/external-task-repository.js';
import { JobDefinitionRepository } from '../persistence/repositories/job-definition-repository.js';
import { CommentRepository } from '../persistence/repositories/comment-repository.js';
import { AttachmentRepository } from '../persistence/repositories/attachment-repository.js';
import { FilterRepository } from '../persistence/repositories/filter-repository.js';
import { TenantRepository } from '../persistence/repositories/tenant-repository.js';
import { PropertyRepository } from '../persistence/repositories/property-repository.js';
import { ProcessDefinitionRepository } from '../persistence/repositories/process-definition-repository.js';
import { ResourceRepository } from '../persistence/repositories/resource-repository.js';
import { MeterLogRepository } from '../persistence/repositories/meter-log-repository.js';
import type { StoreSchema } from '../persistence/schema.js';

/** What a command may touch: repositories bound to its transaction, the clock, ids, config and after-commit hooks. */
export class CommandContext {
  #deployments: DeploymentRepository | undefined;
  #resources: ResourceRepository | undefined;
  #processDefinitions: ProcessDefinitionRepository | undefined;
  #jobs: JobRepository | undefined;
  #users: UserRepository | undefined;
  #executions: ExecutionRepository | undefined;
  #meterLog: MeterLogRepository | undefined;
  #tasks: TaskRepository | undefined;
  #processInstances: ProcessInstanceRepository | undefined;
  #variables: VariableRepository | undefined;
  #groups: GroupRepository | undefined;
  #authorizations: AuthorizationRepository | undefined;
  #eventSubscriptions: EventSubscriptionRepository | undefined;
  #incidents: IncidentRepository | undefined;
  #executionQueries: ExecutionQueryRepository | undefined;
  #externalTasks: ExternalTaskRepository | undefined;
  #jobDefinitions: JobDefinitionRepository | undefined;
  #comments: CommentRepository | undefined;
  #taskAttachments: AttachmentRepository | undefined;
  #filters: FilterRepository | undefined;
  #tenants: TenantRepository | undefined;
  #properties: PropertyRepository | undefined;
  /** Per-command state other modules attach (the runtime's open process instances). */
  readonly attachments = new Map<symbol, unknown>();
  /** The permission checks of this command, for its caller. */
  readonly authz: AuthorizationChecker;
  private tenants$: TenantCheck | undefined;
  private readonly afterCommitHooks: Array<() => void> = [];

  constructor(
    readonly trx: Transaction<StoreSchema>,
    readonly dialect: DialectSeam,
    readonly clock: Clock,
    readonly ids: IdGenerator,
    readonly config: ResolvedEngineConfig,
    private readonly events: EventBus<EngineEvents>,
    /** Who runs the command; null for the engine itself (jobs) or an unauthenticated host call. */
    readonly authentication: Authentication | null = null,
  ) {
    this.authz = new AuthorizationChecker(trx, authentication, config.authorization);
  }

  // Repositories are made when a command first uses them: most commands touch a few of them.
  get deployments(): DeploymentRepository {
    return (this.#deployments ??= new DeploymentRepository(this.trx));
  }

  get resources(): ResourceRepository {
    return (this.#resources ??= new ResourceRepository(this.trx));
  }

  get processDefinitions(): ProcessDefinitionRepository {
    return (this.#processDefinitions ??= new ProcessDefinitionRepository(this.trx));
  }

  get jobs(): JobRepository {
    return (this.#jobs ??= new JobRepository(this.trx, this.dialect));
  }

  get users(): UserRepository {
    return (this.#users ??= new UserRepository(this.trx));
  }

  get executions(): ExecutionRepository {
    return (this.#executions ??= new ExecutionRepository(this.trx));
  }

  /** The meter log and the task meter log (engine metrics). */
  get meterLog(): MeterLogRepository {
    return (this.#meterLog ??= new MeterLogRepository(this.trx));
  }

  get tasks(): TaskRepository {
    return (this.#tasks ??= new TaskRepository(this.trx, (assignee) => this.meterLog.insertTaskWorker(this.ids.next(), assignee, this.clock.now()), this.config.authorization.enabled));
  }

  get processInstances(): ProcessInstanceRepository {
    return (this.#processInstances ??= new ProcessInstanceRepository(this.trx));
  }

  get variables(): VariableRepository {
    return (this.#variables ??= new VariableRepository(this.trx, this.dialect.name));
  }

  get groups(): GroupRepository {
    return (this.#groups ??= new GroupRepository(this.trx));
  }

  get authorizations(): AuthorizationRepository {
    return (this.#authorizations ??= new AuthorizationRepository(this.trx));
  }

  get eventSubscriptions(): EventSubscriptionRepository {
    return (this.#eventSubscriptions ??= new EventSubscriptionRepository(this.trx));
  }

  get incidents(): IncidentRepository {
    return (this.#incidents ??= new IncidentRepository(this.trx));
  }

  get executionQueries(): ExecutionQueryRepository {
    return (this.#executionQueries ??= new ExecutionQueryRepository(this.trx));
  }

  get externalTasks(): ExternalTaskRepository {
    return (this.#externalTasks ??= new ExternalTaskRepository(this.trx, this.dialect));
  }

  get jobDefinitions(): JobDefinitionRepository {
    return (this.#jobDefinitions ??= new JobDefinitionRepository(this.trx));
  }

  get comments(): CommentRepository {
    return (this.#comments ??= new CommentRepository(this.trx));
  }

  get taskAttachments(): AttachmentRepository {
    return (this.#taskAttachments ??= new AttachmentRepository(this.trx));
  }

  get filters(): FilterRepository {
    return (this.#filters ??= new FilterRepository(this.trx));
  }

  get tenants(): TenantRepository {
    return (this.#tenants ??= new TenantRepository(this.trx));
  }

  get properties(): PropertyRepository {
    return (this.#properties ??= new PropertyRepository(this.trx));
  }

  /** Camunda's tenant check for this command's caller. */
  get tenantCheck(): TenantCheck {
    this.tenants$ ??= new TenantCheck(this.authentication, this.config.tenantCheckEnabled, (who) => this.authz.isAdmin(who));
    return this.tenants$;
  }

  /** Runs `hook` once the transaction committed; never when it rolled back. */
  afterCommit(hook: () => void): void {
    this.afterCommitHooks.push(hook);
  }

  /** Publishes an engine event after commit. */
  emitAfterCommit<K extends keyof EngineEvents>(event: K, payload: EngineEvents[K]): void {
    this.afterCommit(() => this.events.emit(event, payload));
  }

  /** Called by the executor once the transaction is committed. */
  runAfterCommitHooks(onError: (error: unknown) => void): void {
    for (const hook of this.afterCommitHooks) {
      try {
        hook();
      } catch (error) {
        onError(error);
      }
    }
  }
}
