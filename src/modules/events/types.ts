// GraphQL for partner events and webhook endpoints: the events list, endpoints made, read,
// changed and deleted, secrets rotated, attempts, events sent again.
import { builder } from '../../graphql/builder.js';
import { EVENT_PAGE, listEvents } from './service.js';
import { EVENT_TYPES, type WireEvent } from '../../changes/types.js';
import {
  createEndpoint,
  deleteEndpoint,
  endpointAttempts,
  listEndpoints,
  readEndpoint,
  resend,
  rotateSecret,
  updateEndpoint,
  type ShownAttempt,
  type ShownEndpoint,
} from './endpoints.js';

const Event = builder.objectRef<WireEvent>('Event').implement({
  description: 'A change a partner would want to know of; the same as its webhooks deliver.',
  fields: (t) => ({
    id: t.exposeID('_id'),
    type: t.exposeString('type', { description: EVENT_TYPES.join(', ') }),
    createdAt: t.float({ description: 'Epoch ms.', resolve: (e) => e.created_at }),
    orgId: t.string({ nullable: true, resolve: (e) => e.org_id }),
    data: t.field({ type: 'JSON', description: 'What changed, in the REST wire names.', resolve: (e) => e.data }),
  }),
});
const EventsPage = builder.objectRef<{ events: WireEvent[]; nextCursor: string | null }>('EventsPage').implement({
  fields: (t) => ({
    events: t.field({ type: [Event], resolve: (p) => p.events }),
    nextCursor: t.string({
      nullable: true,
      description: 'Pass as `after` for the events after these (the same cursor again when none came).',
      resolve: (p) => p.nextCursor,
    }),
  }),
});

builder.queryField('events', (t) =>
  t.withAuth({ scope: 'user' }).field({
    type: EventsPage,
    description: `Your events, oldest first after the cursor: listed a second after they happen, kept 30 days. An organization's token sees its organization's only.`,
    args: {
      after: t.arg.string({ description: 'The next_cursor of the page before.' }),
      types: t.arg.stringList({ description: 'Only these types.' }),
      orgId: t.arg.id({ description: "Only this organization's." }),
      limit: t.arg.int({ description: `1 to ${EVENT_PAGE.max}; ${EVENT_PAGE.default} when omitted.` }),
    },
    resolve: (_root, args, ctx) =>
      listEvents(ctx.services, ctx.auth, {
        after: args.after,
        types: args.types?.flatMap((type) => type.split(',')).filter(Boolean),
        orgId: args.orgId == null ? null : String(args.orgId),
        limit: args.limit,
      }),
  }),
);

const WebhookEndpoint = builder.objectRef<ShownEndpoint>('WebhookEndpoint').implement({
  description: 'Where your events are POSTed, signed per Standard Webhooks.',
  fields: (t) => ({
    id: t.exposeID('id'),
    url: t.exposeString('url'),
    eventTypes: t.exposeStringList('eventTypes', { description: 'The types it receives; empty: all.' }),
    orgId: t.exposeString('orgId', { nullable: true, description: "Only this organization's events, when set." }),
    description: t.exposeString('description', { nullable: true }),
    status: t.exposeString('status', { description: 'enabled or disabled.' }),
    disabledReason: t.exposeString('disabledReason', { nullable: true }),
    createdAt: t.exposeFloat('createdAt', { description: 'Epoch ms.' }),
    secret: t.exposeString('secret', {
      nullable: true,
      description: 'whsec_…: shown once, in the answer that makes the endpoint; rotateWebhookEndpointSecret gives a new one.',
    }),
  }),
});
const WebhookEndpointsPayload = builder.objectRef<{ endpoints: ShownEndpoint[] }>('WebhookEndpointsPayload').implement({
  fields: (t) => ({ endpoints: t.field({ type: [WebhookEndpoint], resolve: (p) => p.endpoints }) }),
});
const WebhookAttempt = builder.objectRef<ShownAttempt>('WebhookAttempt').implement({
  fields: (t) => ({
    eventId: t.exposeString('eventId'),
    at: t.exposeFloat('at', { description: 'Epoch ms.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'Null when the endpoint never answered.' }),
    durationMs: t.exposeInt('durationMs'),
    error: t.exposeString('error', { nullable: true }),
  }),
});
const WebhookAttemptsPayload = builder.objectRef<{ attempts: ShownAttempt[] }>('WebhookAttemptsPayload').implement({
  fields: (t) => ({ attempts: t.field({ type: [WebhookAttempt], resolve: (p) => p.attempts }) }),
});

/** Webhook endpoints carry events: they need what reading events needs (the `user` scope), and
 * a partner login, since an endpoint may take every organization's events. A token narrowed to
 * `billing` could otherwise make one, resend every event to it, or re-point the partner's own. */
const partnerLogin = { $all: { partner: true, scope: 'user' } } as const;

builder.queryField('webhookEndpoints', (t) =>
  t.withAuth(partnerLogin).field({
    type: WebhookEndpointsPayload,
    resolve: async (_root, _args, ctx) => ({ endpoints: await listEndpoints(ctx.services, ctx.auth) }),
  }),
);
builder.queryField('webhookEndpoint', (t) =>
  t.withAuth(partnerLogin).field({
    type: WebhookEndpoint,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, ctx) => readEndpoint(ctx.services, ctx.auth, String(id)),
  }),
);
builder.queryField('webhookAttempts', (t) =>
  t.withAuth(partnerLogin).field({
    type: WebhookAttemptsPayload,
    description: "The endpoint's latest calls, newest first.",
    args: { endpointId: t.arg.id({ required: true }), limit: t.arg.int({ description: '1 to 100; 20 when omitted.' }) },
    resolve: async (_root, { endpointId, limit }, ctx) => ({
      attempts: await endpointAttempts(ctx.services, ctx.auth, String(endpointId), limit ?? undefined),
    }),
  }),
);

const CreateWebhookEndpointInput = builder.inputType('CreateWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'https (http to this machine only in the sandbox), at a public address.' }),
    eventTypes: t.stringList({ description: 'The types to receive; absent or empty: all.' }),
    orgId: t.id({ description: "Only this organization's events." }),
    description: t.string(),
  }),
});
builder.mutationField('createWebhookEndpoint', (t) =>
  t.withAuth(partnerLogin).field({
    type: WebhookEndpoint,
    description: 'A new endpoint, with its signing secret (shown this once).',
    args: { input: t.arg({ type: CreateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, ctx) =>
      createEndpoint(ctx.services, ctx.auth, {
        url: input.url,
        eventTypes: input.eventTypes,
        orgId: input.orgId == null ? null : String(input.orgId),
        description: input.description,
      }),
  }),
);

const UpdateWebhookEndpointInput = builder.inputType('UpdateWebhookEndpointInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    url: t.string(),
    eventTypes: t.stringList({ description: 'Empty: all.' }),
    description: t.string(),
    status: t.string({ description: 'enabled (its waiting events go out) or disabled.' }),
  }),
});
builder.mutationField('updateWebhookEndpoint', (t) =>
  t.withAuth(partnerLogin).field({
    type: WebhookEndpoint,
    args: { input: t.arg({ type: UpdateWebhookEndpointInput, required: true }) },
    resolve: (_root, { input }, ctx) => updateEndpoint(ctx.services, ctx.auth, { ...input, id: String(input.id) }),
  }),
);

const Deleted = builder.objectRef<{ id: string }>('DeletedWebhookEndpoint').implement({ fields: (t) => ({ id: t.exposeID('id') }) });
builder.mutationField('deleteWebhookEndpoint', (t) =>
  t.withAuth(partnerLogin).field({
    type: Deleted,
    description: 'The endpoint stops receiving events; those still to send to it are dropped.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await deleteEndpoint(ctx.services, ctx.auth, String(id));
      return { id: String(id) };
    },
  }),
);

const RotatedSecret = builder.objectRef<{ secret: string }>('RotatedWebhookSecret').implement({
  fields: (t) => ({ secret: t.exposeString('secret', { description: 'The new whsec_… secret; the old one signs beside it for 24 h.' }) }),
});
builder.mutationField('rotateWebhookEndpointSecret', (t) =>
  t.withAuth(partnerLogin).field({
    type: RotatedSecret,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => ({ secret: await rotateSecret(ctx.services, ctx.auth, String(id)) }),
  }),
);

const ResendWebhookEventsInput = builder.inputType('ResendWebhookEventsInput', {
  fields: (t) => ({
    endpointId: t.id({ required: true }),
    eventId: t.string({ description: 'This event again.' }),
    since: t.float({ description: 'Every event since then (epoch ms) that the endpoint takes, oldest first, at most 10,000.' }),
  }),
});
const Resent = builder.objectRef<{ queued: number }>('ResentWebhookEvents').implement({
  fields: (t) => ({ queued: t.exposeInt('queued', { description: 'How many events go out again.' }) }),
});
builder.mutationField('resendWebhookEvents', (t) =>
  t.withAuth(partnerLogin).field({
    type: Resent,
    description: 'Send one event, or every event since a time, to the endpoint again (the same webhook-id).',
    args: { input: t.arg({ type: ResendWebhookEventsInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({
      queued: await resend(ctx.services, ctx.auth, { id: String(input.endpointId), eventId: input.eventId, sinceMs: input.since }),
    }),
  }),
);
