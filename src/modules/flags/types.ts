// GraphQL for flags and segments (docs/reference.md § Partner API): targeting contexts, search, evaluation.
import { builder } from '../../graphql/builder.js';
import {
  changeFlagTargets,
  changeSegmentContexts,
  evaluateFlag,
  partnerOf,
  searchContexts,
  type Evaluation,
  type SearchResult,
} from './service.js';

const ContextInput = builder.inputType('ContextInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: 'A user or entity id.' }),
    kind: t.string({ description: 'Matches [A-Za-z0-9._-]+, not "kind" or "multi"; defaults to user.' }),
  }),
});
const ContextRef = builder.objectRef<{ key: string; kind: string }>('Context').implement({
  fields: (t) => ({ key: t.exposeString('key'), kind: t.exposeString('kind') }),
});
const TargetsPayload = builder
  .objectRef<{ flagKey?: string; segmentKey?: string; targets: { key: string; kind: string }[] }>('TargetsPayload')
  .implement({
    description: "A flag's or segment's contexts after the change.",
    fields: (t) => ({
      flagKey: t.exposeString('flagKey', { nullable: true }),
      segmentKey: t.exposeString('segmentKey', { nullable: true }),
      targets: t.field({ type: [ContextRef], resolve: (p) => p.targets }),
    }),
  });

const ChangeContextsInput = builder.inputType('ChangeContextsInput', {
  fields: (t) => ({
    partnerId: t.id({ required: true, description: 'Your own partner id.' }),
    key: t.string({ required: true, description: 'The flag key or segment key.' }),
    contexts: t.field({ type: [ContextInput], required: true }),
  }),
});

type ChangeContexts = (
  ...args: Parameters<typeof changeFlagTargets>
) => Promise<{ flagKey?: string; segmentKey?: string; targets: { key: string; kind: string }[] }>;
const change = (name: string, description: string, run: ChangeContexts, how: 'add' | 'remove') =>
  builder.mutationField(name, (t) =>
    t.withAuth({ partner: true }).field({
      type: TargetsPayload,
      description,
      args: { input: t.arg({ type: ChangeContextsInput, required: true }) },
      resolve: (_root, { input }, ctx) => run(ctx.services, partnerOf(ctx.auth, String(input.partnerId)), input.key, input.contexts, how),
    }),
  );
change('addFlagContexts', "Add contexts to a flag's targeting (served its on variation).", changeFlagTargets, 'add');
change('removeFlagContexts', "Remove contexts from a flag's targeting.", changeFlagTargets, 'remove');
change('addSegmentContexts', 'Add contexts to a segment.', changeSegmentContexts, 'add');
change('removeSegmentContexts', 'Remove contexts from a segment.', changeSegmentContexts, 'remove');

const SearchedContext = builder.objectRef<SearchResult>('SearchedContext').implement({
  fields: (t) => ({
    key: t.exposeString('key'),
    kind: t.exposeString('kind'),
    flags: t.exposeStringList('flags', { description: 'Flags targeting this context.' }),
    segments: t.exposeStringList('segments', { description: 'Segments including this context.' }),
  }),
});
const SearchContextsPayload = builder.objectRef<{ contexts: SearchResult[] }>('SearchContextsPayload').implement({
  fields: (t) => ({ contexts: t.field({ type: [SearchedContext], resolve: (p) => p.contexts }) }),
});

builder.queryField('searchContexts', (t) =>
  t.withAuth({ partner: true }).field({
    type: SearchContextsPayload,
    description: 'Contexts across the flags and segments you own.',
    args: {
      partnerId: t.arg.id(),
      q: t.arg.string({ description: 'Substring of the context key (case-insensitive).' }),
      kind: t.arg.string(),
      limit: t.arg.string({ description: 'A whole number from 1 to 50, as a string; 20 when omitted.' }),
    },
    resolve: (_root, args, ctx) =>
      searchContexts(ctx.services, partnerOf(ctx.auth, args.partnerId ? String(args.partnerId) : null, false), args),
  }),
);

const Reason = builder.enumType('EvaluationReason', { values: ['TARGET_MATCH', 'SEGMENT_MATCH', 'FALLTHROUGH', 'OFF'] as const });
const EvaluationRef = builder.objectRef<Evaluation>('FlagEvaluation').implement({
  fields: (t) => ({
    flagKey: t.exposeString('flagKey'),
    value: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.value }),
    enabled: t.exposeBoolean('enabled', { description: 'Whether the flag is on.' }),
    reason: t.field({ type: Reason, resolve: (e) => e.reason }),
  }),
});

builder.queryField('evaluateFlag', (t) =>
  t.withAuth({ partner: true }).field({
    type: EvaluationRef,
    args: {
      partnerId: t.arg.id({ required: true }),
      flagKey: t.arg.string({ required: true }),
      key: t.arg.string({ required: true }),
      kind: t.arg.string({ defaultValue: 'user' }),
    },
    resolve: (_root, args, ctx) =>
      evaluateFlag(ctx.db, partnerOf(ctx.auth, String(args.partnerId)), args.flagKey, { key: args.key, kind: args.kind }),
  }),
);
