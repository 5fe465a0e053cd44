// REST rows for flags and segments (CONTRACT.md section 1).
import { type RestRequest, type RestRoute } from '../../server/rest.js';

const q = (req: RestRequest, name: string) => {
  const value = req.query[name];
  return typeof value === 'string' ? value : null;
};
const body = (req: RestRequest) => (req.body ?? {}) as { contexts?: unknown; key?: unknown; kind?: unknown };

const changeRow = (method: 'POST' | 'DELETE', kind: 'flags' | 'segments', field: string): RestRoute => ({
  method,
  path: `/v1/${kind}/:key/contexts`,
  document: `mutation ${field}($input: ChangeContextsInput!) { ${field}(input: $input) { ${kind === 'flags' ? 'flagKey' : 'segmentKey'} targets { key kind } } }`,
  // partner_id is required: an empty one reaches the service, which answers 400.
  variables: (req) => ({ input: { partnerId: q(req, 'partner_id') ?? '', key: req.params.key, contexts: body(req).contexts } }),
  result: (data) => {
    const { targets, ...key } = data[field] as { targets: unknown[]; flagKey?: string | null; segmentKey?: string | null };
    return { ...Object.fromEntries(Object.entries(key).filter(([, v]) => v !== null)), targets };
  },
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
    document: `query SearchContexts($partnerId: ID, $q: String, $kind: String, $limit: String) {
      searchContexts(partnerId: $partnerId, q: $q, kind: $kind, limit: $limit) { contexts { key kind flags segments } }
    }`,
    variables: (req) => ({ partnerId: q(req, 'partner_id'), q: q(req, 'q'), kind: q(req, 'kind'), limit: q(req, 'limit') }),
    result: (data) => data.searchContexts,
    status: 200,
  },
  {
    method: 'POST',
    path: '/v1/flags/:key/evaluate',
    document: `query EvaluateFlag($partnerId: ID!, $flagKey: String!, $key: String!, $kind: String) {
      evaluateFlag(partnerId: $partnerId, flagKey: $flagKey, key: $key, kind: $kind) { flagKey value enabled reason }
    }`,
    variables: (req) => ({ partnerId: q(req, 'partner_id') ?? '', flagKey: req.params.key, key: body(req).key, kind: body(req).kind ?? 'user' }),
    result: (data) => data.evaluateFlag,
    status: 200,
  },
];
