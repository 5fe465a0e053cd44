// What a DSP's store is told (docs/api-guide.md, "Stopping and restarting orders"): the event
// location.pause, location.resume, location.items.snooze or unsnooze, in the DSP's wire names.

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
