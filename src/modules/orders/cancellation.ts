// A cancellation's party and reason (docs/dsp-channels.md, "Cancellations", and the POS's order.updated):
// the codes each party may give, read once from its webhook, kept on the order and told onward
// to every peer and partner in the wire's names.
import { Invalid } from '../../common/errors.js';
import { MAX_TEXT } from '../../common/input.js';
import type { Order as OrderRow } from '../../db/client.js';

/** Why a restaurant cancels (its POS's order.updated to merchant_canceled). */
export const MERCHANT_CANCEL_REASONS = ['out_of_stock', 'kitchen_closed', 'too_busy', 'customer_request', 'other'] as const;
/** Why a platform cancels (its order.canceled). */
export const DSP_CANCEL_REASONS = ['customer_request', 'courier_unavailable', 'fraud', 'delay', 'other'] as const;
/** Who canceled. */
export const CANCELED_BY = ['merchant', 'dsp'] as const;
export type CanceledBy = (typeof CANCELED_BY)[number];

/** A cancellation as the order keeps it. */
export type Cancellation = { by: CanceledBy; reason: string | null; details: string | null };

/** A party's cancellation read from its webhook's object: its `cancel_reason` one of that party's
 * codes (else 400 naming them), and for the restaurant its `cancel_details`, a sentence. */
export function readCancellation(by: CanceledBy, object: Record<string, unknown>): Cancellation {
  const allowed: readonly string[] = by === 'merchant' ? MERCHANT_CANCEL_REASONS : DSP_CANCEL_REASONS;
  const reason = object.cancel_reason ?? null;
  if (reason !== null && !allowed.includes(reason as string))
    throw new Invalid(`object.cancel_reason must be one of ${allowed.join(', ')}, not ${JSON.stringify(reason).slice(0, 60)}`);
  const details = object.cancel_details ?? null;
  if (details !== null && (typeof details !== 'string' || details.length > MAX_TEXT))
    throw new Invalid(`object.cancel_details must be a sentence of at most ${MAX_TEXT} characters`);
  return { by, reason: reason as string | null, details: by === 'merchant' ? (details as string | null)?.trim() || null : null };
}

/** What a cancellation writes on the order. */
export const cancellationColumns = (cancellation: Cancellation) => ({
  canceledBy: cancellation.by,
  cancelReason: cancellation.reason,
  cancelDetails: cancellation.details,
});

type Canceled = Pick<OrderRow, 'status' | 'canceledBy' | 'cancelReason' | 'cancelDetails' | 'endedAt'>;

/** How a canceled order was canceled; null for an order that was not. An order canceled before
 * its party was kept says it by its status. */
export function cancellationOf(
  order: Canceled,
): { by: CanceledBy; reason: string | null; details: string | null; at: number | null } | null {
  if (order.status !== 'merchant_canceled' && order.status !== 'dsp_canceled') return null;
  return {
    by: (order.canceledBy as CanceledBy | null) ?? (order.status === 'merchant_canceled' ? 'merchant' : 'dsp'),
    reason: order.cancelReason,
    details: order.cancelDetails,
    at: order.endedAt?.getTime() ?? null,
  };
}

/** A canceled order's cancellation in the wire's names, for the messages that tell it onward
 * (nothing for an order not canceled). */
export function cancellationWire(order: Canceled): Record<string, unknown> {
  const cancellation = cancellationOf(order);
  return cancellation
    ? {
        canceled_by: cancellation.by,
        cancel_reason: cancellation.reason,
        ...(cancellation.details ? { cancel_details: cancellation.details } : {}),
      }
    : {};
}
