// What a provider says of its locations, and what its POS is told of one, in their wire names:
// a POS's restaurants and a DSP's stores as GET /locations lists them (read here into the
// domain's names), and the connection and disconnection notices (location_id on the wire).
import type { Location as LocationRow } from '../../db/client.js';
import type { OutboxInput } from '../../delivery/outbox.js';
import { providerCall, type OpenApiOperation } from '../../http/route-docs.js';
import { prepMinutesOf } from '../stores/pace.js';

/** A postal address, kept as the provider gave it (docs/reference.md § Resources). */
export type Address = {
  formatted_address?: string;
  address_line_1?: string;
  address_line_2?: string;
  address_line_3?: string;
  postal_code?: string;
  locality?: string;
  administrative_district_level_1?: string;
  country?: string;
  latitude?: number;
  longitude?: number;
};

/** A location a provider lists: its id, name, address and, for a POS, its IANA time zone and its
 * kitchen's prep time (whole minutes, 1-240; null when it gives none or one out of range). */
export type ProviderLocation = { providerId: string; name: string; address: Address; timezone?: unknown; prepTimeMinutes?: number | null };

/** A provider's answer to GET /locations, read: the entries with a provider_id, in the domain's names. */
export function providerLocationsOf(body: { locations?: unknown } | undefined): ProviderLocation[] | null {
  if (!Array.isArray(body?.locations)) return null;
  return body.locations
    .filter((l): l is Record<string, unknown> => !!l && typeof (l as { provider_id?: unknown }).provider_id === 'string')
    .map((l) => ({
      providerId: l.provider_id as string,
      name: String(l.name ?? l.provider_id),
      address: (l.address ?? {}) as Address,
      timezone: l.timezone,
      prepTimeMinutes: prepMinutesOf(l.prep_time_minutes),
    }));
}

/** The connection (or disconnection) notice of a location to its POS: docs/reference.md § POS
 * interface sends it only to a POS that enables it. */
export function notice(
  location: Pick<LocationRow, 'id' | 'partnerId' | 'orgId' | 'source' | 'onboardingId' | 'providerId'>,
  what: 'connect' | 'disconnect',
): OutboxInput {
  return {
    kind: `location.${what}`,
    owner: location,
    to: { provider: location.source, operation: what, onboardingId: location.onboardingId },
    body: { location_id: location.providerId },
    subject: { purpose: what, subjectId: location.id },
  };
}

/** The connection and disconnection notices, as the OpenAPI document's `webhooks` describe them. */
export function posNoticeDocs(): Record<string, OpenApiOperation> {
  const notice = (what: 'connect' | 'disconnect', when: string) =>
    providerCall(
      'post',
      `To a POS: ${what === 'connect' ? 'a location connected' : 'a location disconnected'}`,
      `${when} POST {pos base_url}/v1/locations/${what}, only to a POS registered with --connection-notices.`,
      {
        headers: { 'Idempotency-Key': 'The same for this notice however often it is sent.' },
        body: { type: 'object', required: ['location_id'], properties: { location_id: { type: 'string', description: 'Your location.' } } },
        answers: { '2XX': { description: 'Taken.' } },
      },
    );
  return {
    'pos locations.connect': notice('connect', 'A partner ingested your location: orders may follow.'),
    'pos locations.disconnect': notice('disconnect', 'A partner deleted your location: no order for it will follow.'),
  };
}
