// REST rows for flags and segments (docs/reference.md § Partner API).
import type { RestRoute } from '../../http/rest-route.js';

const changeRow = (method: 'POST' | 'DELETE', kind: 'flags' | 'segments', field: string): RestRoute => ({
  method,
  path: `/v1/${kind}/:key/contexts`,
  summary: `${method === 'POST' ? 'Add contexts to' : 'Remove contexts from'} a ${kind === 'flags' ? "flag's targeting" : 'segment'}`,
  document: `mutation ${field}($input: ChangeContextsInput!) { ${field}(input: $input) { ${kind === 'flags' ? 'flagKey' : 'segmentKey'} targets { key kind } } }`,
  from: { 'input.partnerId': 'query.partner_id', 'input.key': 'path.key', 'input.contexts': 'body.contexts' },
  names: 'graphql',
  omitNulls: true,
  status: 200,
});

export const flagRoutes: RestRoute[] = [
  changeRow('POST', 'flags', 'addFlagContexts'),
  changeRow('DELETE', 'flags', 'removeFlagContexts'),
  changeRow('POST', 'segments', 'addSegmentContexts'),
  changeRow('DELETE', 'segments', 'removeSegmentContexts'),
  {
    method: 'GET',
    path: '/v1/contexts',
    summary: 'Search the contexts your flags and segments target',
    document: `query SearchContexts($partnerId: ID, $q: String, $kind: String, $limit: String) {
      searchContexts(partnerId: $partnerId, q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } }
    }`,
    from: { partnerId: 'query.partner_id', q: 'query.q', kind: 'query.kind', limit: 'query.limit' },
    names: 'graphql',
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/flags/:key/evaluate',
    summary: 'Evaluate a flag for a context',
    document: `query EvaluateFlag($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) {
      evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason }
    }`,
    from: { partnerId: 'query.partner_id', flagKey: 'path.key', key: 'body.key', kind: 'body.kind' },
    names: 'graphql',
    status: 200,
  },
];
