// A DSP store on the wire: what its DSP is told (docs/api-guide.md, "Stopping and restarting
// orders": location.pause, location.resume, location.items.snooze or unsnooze) and how partners
// read it in events (our id as _id, the platform's as dsp_provider_id).

/** What a store's event says: the items it concerns, and the end of the pause or time off sale
 * (none: until undone). */
export type StoreEventData = { itemIds?: readonly string[]; until?: Date | null };

export function storeEventBody(type: string, dspStoreId: string, data: StoreEventData) {
  return {
    type,
    store_id: dspStoreId,
    created_at: Date.now(),
    data: {
      ...(data.itemIds ? { item_ids: data.itemIds } : {}),
      ...(data.until ? { until_ms: data.until.getTime() } : {}),
    },
  };
}

/** A store in a partner event's data (dsp_connection.bound, location.paused, location.resumed). */
export function storeWire(store: { id: string; dspStoreId: string; name: string; status: string; pausedUntil?: number | null }) {
  return {
    _id: store.id,
    dsp_provider_id: store.dspStoreId,
    dsp_store_name: store.name,
    status: store.status,
    ...(store.pausedUntil === undefined ? {} : { paused_until: store.pausedUntil }),
  };
}
