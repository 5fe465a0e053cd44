// The types of change: those partners list and subscribe to (announced), those only a subject's
// history keeps (quiet), and the event as partners receive it (by webhook and in the list), in
// its wire names.
import type { EventRow } from '../db/sql/events.js';

export const EVENT_TYPES = [
  'onboarding.updated',
  'location.ingested',
  'location.deleted',
  'location.paused',
  'location.resumed',
  'location.items.availability',
  'location.busy',
  'location.busy.ended',
  'dsp_connection.bound',
  'dsp_connection.status',
  'menu.publish.succeeded',
  'menu.publish.failed',
  'order.created',
  'order.updated',
  'order.failed',
  'delivery.dead',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Changes recorded but not announced: no partner lists or receives them, their subject's history
 * keeps them (an order's timeline: the POS took it). */
export const QUIET_TYPES = ['order.accepted'] as const;
export type RecordType = EventType | (typeof QUIET_TYPES)[number];

/** The event as a partner receives it, by webhook and in the list. */
export type WireEvent = { _id: string; type: string; created_at: number; org_id: string | null; data: unknown };

export const wireEvent = (row: EventRow): WireEvent => ({
  _id: row.id,
  type: row.type,
  created_at: row.createdAt.getTime(),
  org_id: row.orgId,
  data: JSON.parse(row.data) as unknown,
});
