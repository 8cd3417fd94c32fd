/** How long the event log keeps an event (designed: 30 days). */
export const EVENT_RETENTION_DAYS = 30;

/**
 * The oldest creation time of an event still kept at `now`. Older events are gone for every
 * reader from that moment, whether or not the purge has deleted their rows yet.
 */
export function eventsRetainedSince(now: Date): Date {
  return new Date(now.getTime() - EVENT_RETENTION_DAYS * 24 * 3600 * 1000);
}
