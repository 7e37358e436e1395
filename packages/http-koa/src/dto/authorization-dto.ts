import { namesFromBits, type Authorization } from '@trellis/core';
import { formatRestDate } from './dates.js';

export function toAuthorizationDto(authorization: Authorization) {
  return {
    id: authorization.id,
    type: authorization.type,
    permissions: namesFromBits(authorization.type, authorization.permissions, authorization.resourceType),
    userId: authorization.userId,
    groupId: authorization.groupId,
    resourceType: authorization.resourceType,
    resourceId: authorization.resourceId,
    removalTime: authorization.removalTime ? formatRestDate(authorization.removalTime) : null,
    rootProcessInstanceId: authorization.rootProcessInstanceId,
  };
}
