import { BadUserRequestException, NotAllowedException, NotFoundException, suspendedEntity } from '../../errors/exceptions.js';
import { ensureMessage } from '../../errors/ensure.js';

/** Camunda's texts for process definition lookups and updates, in one place. */
export const definitionNotFound = (id: string) =>
  new NotFoundException(ensureMessage(`No process definition found with id '${id}'`, 'processDefinition', 'is null'));

/** Camunda's deployment cache text for an unknown definition id (findDeployedProcessDefinitionById). */
export const noDeployedDefinition = (id: string) =>
  new NotFoundException(ensureMessage(`no deployed process definition found with id '${id}'`, 'processDefinition', 'is null'));

export const noDefinitionsForKey = (key: string) =>
  new NotFoundException(ensureMessage(`No process definition found with key '${key}'`, 'processDefinitions', 'is empty'));

export const negativeHistoryTimeToLive = () => new BadUserRequestException(ensureMessage('', 'historyTimeToLive', 'is not greater than or equal to 0'));

export const nullHistoryTimeToLive = () => new NotAllowedException('Null historyTimeToLive values are not allowed');

/** Camunda's ProcessDefinitionEntity.ensureNotSuspended: no instance of a suspended definition starts. */
export function ensureDefinitionActive(definition: { id: string; suspended: boolean }): void {
  if (definition.suspended) throw suspendedEntity('Process Definition', definition.id);
}
