import type { ProcessEngine } from '../engine.js';
import { namesFromBits } from '../authorization/permission-converter.js';

/**
 * Gives a user (or group) GRANT permissions on a resource, added to those its grant there holds:
 * Camunda keeps one authorization per type, user or group and resource, so a test that grants step
 * by step extends that one. Runs as the caller of the moment, who must be able to read and write it.
 */
export async function grantMore(
  engine: ProcessEngine,
  to: { userId: string } | { groupId: string },
  resourceType: number,
  resourceId: string,
  permissions: readonly string[],
): Promise<void> {
  const who = 'userId' in to ? { userIdIn: [to.userId] } : { groupIdIn: [to.groupId] };
  const [existing] = await engine.authorization.findAuthorizations({ type: 1, resourceType, resourceId, ...who });
  if (!existing) {
    await engine.authorization.createAuthorization({ type: 1, ...to, resourceType, resourceId, permissions });
    return;
  }
  const held = namesFromBits(1, existing.permissions, resourceType);
  await engine.authorization.updateAuthorization(existing.id, { ...to, resourceType, resourceId, permissions: [...new Set([...held, ...permissions])] });
}
