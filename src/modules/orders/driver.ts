// The driver an event provider assigns, as the domain keeps it (the Order's `driver` column, as
// JSON). Read from the provider's webhook in ./webhooks.ts, written to peers in ./peers.ts.

export type Phone = { number: string; code: string | null };
export type VehicleInfo = { make: string | null; model: string | null; color: string | null; licensePlate: string | null };
export type Driver = { name: string; phone: Phone | null; source: string | null; vehicleInfo: VehicleInfo | null };

/** The stored driver, or null. Drivers stored before vehicles were kept are read alike: their
 * `phone` may be the text the provider sent, and they have no vehicle. */
export function storedDriver(text: string | null): Driver | null {
  if (!text) return null;
  const stored = JSON.parse(text) as Partial<Driver> & { phone?: Phone | string | null };
  const phone = typeof stored.phone === 'string' ? { number: stored.phone, code: null } : (stored.phone ?? null);
  return { name: stored.name ?? '', phone, source: stored.source ?? null, vehicleInfo: stored.vehicleInfo ?? null };
}

/** The driver as it is stored: one text per driver, so that the same driver sent again is seen
 * to be the same. */
export const driverText = (driver: Driver): string => JSON.stringify(driver);
