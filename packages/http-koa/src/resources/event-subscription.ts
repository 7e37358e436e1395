import Router from '@koa/router';
import type { EventSubscription, EventSubscriptionListQuery } from '@trellis/core';
import { formatRestDate } from '../dto/dates.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';


const SUBSCRIPTION_QUERY: QuerySpec = {
  params: {
    eventSubscriptionId: 'string', eventName: 'string', eventType: 'string', executionId: 'string', processInstanceId: 'string',
    activityId: 'string', tenantIdIn: 'optionalList', withoutTenantId: 'boolean', includeEventSubscriptionsWithoutTenantId: 'boolean',
  },
  sortBy: ['created', 'tenantId'],
};

/** Camunda's EventSubscriptionDto. */
export const toEventSubscriptionDto = (subscription: EventSubscription) => ({
  id: subscription.id,
  eventType: subscription.eventType,
  eventName: subscription.eventName,
  executionId: subscription.executionId,
  processInstanceId: subscription.processInstanceId,
  activityId: subscription.activityId,
  createdDate: formatRestDate(subscription.created),
  tenantId: subscription.tenantId,
});

/** The Event Subscription group: query and count (start-event subscriptions included). */
export function eventSubscriptionRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  // Camunda takes any text as the event type.
  const parse = (query: Record<string, unknown>): EventSubscriptionListQuery => parseListQuery<EventSubscriptionListQuery>(query, SUBSCRIPTION_QUERY);

  router.get('/event-subscription', async (ctx) => {
    ctx.body = (await engine.management.queryEventSubscriptions(parse(ctx.query))).map(toEventSubscriptionDto);
  });
  router.get('/event-subscription/count', async (ctx) => {
    const query = countCriteria(parse(ctx.query));
    ctx.body = { count: await engine.management.countEventSubscriptions(query) };
  });
}
