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
  readonly deployments: DeploymentRepository;
  readonly resources: ResourceRepository;
  readonly processDefinitions: ProcessDefinitionRepository;
  readonly jobs: JobRepository;
  readonly users: UserRepository;
  readonly executions: ExecutionRepository;
  readonly tasks: TaskRepository;
  readonly processInstances: ProcessInstanceRepository;
  readonly variables: VariableRepository;
  readonly groups: GroupRepository;
  readonly authorizations: AuthorizationRepository;
  readonly eventSubscriptions: EventSubscriptionRepository;
  readonly incidents: IncidentRepository;
  readonly executionQueries: ExecutionQueryRepository;
  readonly externalTasks: ExternalTaskRepository;
  readonly jobDefinitions: JobDefinitionRepository;
  readonly comments: CommentRepository;
  readonly taskAttachments: AttachmentRepository;
  readonly filters: FilterRepository;
  readonly tenants: TenantRepository;
  readonly properties: PropertyRepository;
  /** The meter log and the task meter log (engine metrics). */
  readonly meterLog: MeterLogRepository;
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
    this.deployments = new DeploymentRepository(trx);
    this.resources = new ResourceRepository(trx);
    this.processDefinitions = new ProcessDefinitionRepository(trx);
    this.jobs = new JobRepository(trx, dialect);
    this.users = new UserRepository(trx);
    this.executions = new ExecutionRepository(trx);
    this.meterLog = new MeterLogRepository(trx);
    this.tasks = new TaskRepository(trx, (assignee) => this.meterLog.insertTaskWorker(ids.next(), assignee, clock.now()), config.authorization.enabled);
    this.processInstances = new ProcessInstanceRepository(trx);
    this.variables = new VariableRepository(trx, dialect.name);
    this.groups = new GroupRepository(trx);
    this.authorizations = new AuthorizationRepository(trx);
    this.eventSubscriptions = new EventSubscriptionRepository(trx);
    this.incidents = new IncidentRepository(trx);
    this.executionQueries = new ExecutionQueryRepository(trx);
    this.externalTasks = new ExternalTaskRepository(trx, dialect);
    this.jobDefinitions = new JobDefinitionRepository(trx);
    this.comments = new CommentRepository(trx);
    this.taskAttachments = new AttachmentRepository(trx);
    this.filters = new FilterRepository(trx);
    this.tenants = new TenantRepository(trx);
    this.properties = new PropertyRepository(trx);
    this.authz = new AuthorizationChecker(trx, authentication, config.authorization);
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
