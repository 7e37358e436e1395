import { engineMessage } from '../../errors/engine-message.js';

const DAYS_PERIOD = /^P(\d+)D$/;

/** Camunda's ParseUtil.parseHistoryTimeToLive: whole days, as `5` or `P5D`; throws a message on anything else. */
export function parseHistoryTimeToLive(value: string | number | undefined | null): number | null {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value).trim();
  const period = DAYS_PERIOD.exec(text);
  const days = period ? Number(period[1]) : /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(days)) throw new Error(`Cannot parse historyTimeToLive: For input string: "${text}"`);
  if (days < 0) throw new Error('Cannot parse historyTimeToLive: negative value is not allowed');
  return days;
}

/** ENGINE-12018: a definition without TTL while TTL is enforced and no engine default exists. */
export const missingHistoryTimeToLive = () =>
  engineMessage(
    '12',
    '018',
    'History Time To Live (TTL) cannot be null. TTL is necessary for the History Cleanup to work. ' +
      'The following options are possible:\n* Set historyTimeToLive in the model\n' +
      '* Set a default historyTimeToLive as a global process engine configuration\n' +
      '* (Not recommended) Deactivate the enforceTTL config to disable this check',
  );
