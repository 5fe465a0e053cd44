// A POS that gets our interface wrong in the ways vendors do, for the conformance kit's tests:
// it drops the OAuth state, hands the same code out for ever, answers its token without `id`,
// lists a location keyed `id` instead of `provider_id`, checks no bearer token, answers a
// location it never listed with a catalog, leaves `tax_rate` out of its catalog, prices it in
// dollars (3.5, not 350 cents), writes its menu's hours its own way, makes a new order for every
// repeat, and has no notice endpoints.
import http from 'node:http';

export async function startBrokenPos(): Promise<{ url: string; close: () => Promise<void> }> {
  let orders = 0;
  const server = http.createServer((request, response) => {
    const at = new URL(request.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    request.resume();
    request.on('end', () => {
      if (at.pathname === '/v1/authorize') {
        const back = new URL(at.searchParams.get('redirect_uri') ?? 'http://127.0.0.1/');
        back.searchParams.set('code', 'always-the-same');
        return void response.writeHead(302, { location: back.toString() }).end();
      }
      if (at.pathname === '/v1/token') return json(200, { access_token: 'at', refresh_token: 'rt', expire_time: Date.now() + 3_600_000 });
      if (at.pathname === '/v1/locations') return json(200, { locations: [{ provider_id: 'loc_1' }, { id: 'loc_popup', name: 'Pop-up' }] });
      if (at.pathname === '/v1/catalog')
        return json(200, {
          default_language: 'en-US',
          currency: 'usd',
          category: [{ provider_id: 'c-tacos', item_ids: ['item_taco'] }],
          item_family: [],
          item: [{ provider_id: 'item_taco', name: 'Taco', price: 3.5 }],
          modifier_group: [],
          modifier: [],
          menu: [{ provider_id: 'm-main', category_ids: ['c-tacos'], schedule: { funday: ['11-22'], monday: ['11:00'] } }],
          tax: [],
          holidays: [],
        });
      if (at.pathname === '/v1/orders') return json(201, { order: { id: `pos_${++orders}` } });
      json(404, { message: 'not here' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
