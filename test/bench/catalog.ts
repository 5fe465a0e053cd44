// A catalog of any size holds no one else up, measured: a 165 MB one is refused unread while
// /health keeps answering, and a 9 MB one is read, stored and published with the event loop
// held at most 100 ms (its reading and each store's part worked out on a worker thread). The
// sandbox POS runs in a process of its own, so that only the service's work is measured; what
// the service does with each catalog is asserted in test/modules/catalog/catalog-size.test.ts.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { startTestService } from '../support/service.js';
import { control, posProcess } from '../support/sandbox.js';
import { merchantTakingOrders, until } from '../support/orders.js';

export async function largeCatalogs() {
  const service = await startTestService();
  const pos = await posProcess(service);
  try {
    const m = await merchantTakingOrders(service);
    const posLocation = `loc_2_${m.tid}`;
    const { db } = service.services;
    const newest = async () =>
      (await db.catalogVersion.findFirst({ where: { locationId: m.locationId }, orderBy: { version: 'desc' } }))?.version ?? 0;
    const versionAfter = (after: number) =>
      until(
        () => db.catalogVersion.findFirst({ where: { locationId: m.locationId, version: { gt: after } }, orderBy: { version: 'desc' } }),
        60_000,
      );

    await control(pos, 'catalog', { location_id: posLocation, items: 50_000, padding: 3_300 });
    let before = await newest();
    let healthSlowest = 0;
    let probing = true;
    const probes = (async () => {
      while (probing) {
        const asked = performance.now();
        await fetch(`${service.url}/health`);
        healthSlowest = Math.max(healthSlowest, performance.now() - asked);
      }
    })();
    let asked = performance.now();
    await control(pos, 'catalog-updated', { location_id: posLocation });
    await versionAfter(before);
    const refusedMs = performance.now() - asked;
    probing = false;
    await probes;

    await control(pos, 'catalog', { location_id: posLocation, items: 30_000, padding: 160 });
    before = await newest();
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    asked = performance.now();
    await control(pos, 'catalog-updated', { location_id: posLocation });
    const version = await versionAfter(before);
    await until(() => db.menuPublish.findFirst({ where: { catalogVersionId: version.id, status: 'published' } }), 60_000);
    const publishedMs = performance.now() - asked;
    loop.disable();
    return {
      refusedMs: Math.round(refusedMs),
      healthSlowestMs: Math.round(healthSlowest),
      publishedMs: Math.round(publishedMs),
      loopMaxMs: Math.round(loop.max / 1e6),
    };
  } finally {
    await pos.close();
    await service.stop();
  }
}
