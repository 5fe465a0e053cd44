// OpenTelemetry traces (docs/operations.md, "Tracing"): with an OTLP endpoint configured
// (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT), spans for each request
// (continuing a W3C traceparent it came with), each GraphQL operation, each plain database
// statement and each call to a provider or a partner's endpoint go out over OTLP/HTTP (protobuf,
// or JSON with OTEL_EXPORTER_OTLP_PROTOCOL=http/json), batched, off the request path: an endpoint
// that is down or slow drops spans, never a request. The outbox keeps the trace context of the
// change that wrote a message (its `traceparent` header), so the call, however much later and from
// whichever instance, is part of the same trace. Without an endpoint nothing is made: each
// helper below is a plain call.
import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type { Sampler } from '@opentelemetry/sdk-trace-base';

export type TracingConfig = {
  /** The OTLP/HTTP traces URL (…/v1/traces), or undefined: tracing off. */
  url: string | undefined;
  protocol: 'http/protobuf' | 'http/json';
  headers: Record<string, string>;
  serviceName: string;
  sampler: string;
  samplerArg: number | undefined;
  /** How often batched spans are sent (OTEL_BSP_SCHEDULE_DELAY), ms. */
  scheduleDelayMs: number;
  timeoutMs: number;
};

// The SDK, its exporters and the W3C propagator are loaded by the first service that traces:
// about two hundred modules a service without an endpoint (the usual one, and every test's) has
// no use for.
let propagator: TextMapPropagator;
const setter = {
  set: (carrier: Record<string, string>, key: string, value: string) => {
    carrier[key] = value;
  },
};
const getter = {
  keys: (carrier: Record<string, unknown>) => Object.keys(carrier),
  get: (carrier: Record<string, unknown>, key: string) => {
    const value = carrier[key];
    return Array.isArray(value) ? (value[0] as string) : (value as string | undefined);
  },
};

/** Whether any service of this process traces: when none does, no context is looked up at all. */
let tracingSomewhere = false;

/** The W3C headers (traceparent, tracestate) of the active trace, or none. */
export function traceHeaders(): Record<string, string> {
  if (!tracingSomewhere) return {};
  const carrier: Record<string, string> = {};
  propagator.inject(context.active(), carrier, setter);
  return carrier;
}

export type Tracing = {
  enabled: boolean;
  /** Runs `work` in a span, child of `parent` (the active context by default), ended when it ends. */
  span<T>(name: string, attributes: Attributes, work: () => Promise<T>, options?: { parent?: Context; kind?: SpanKind }): Promise<T>;
  /** Starts a span without making it active (the caller ends it), and the context it makes. */
  start(name: string, attributes: Attributes, parent: Context, kind?: SpanKind): { span: Span; context: Context };
  /** The context a carrier's traceparent continues (a request's headers, a message's stored ones). */
  extract(carrier: Record<string, unknown>): Context;
  /** Sends what is batched (tests, and before stopping). */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
};

const NO_SPAN = trace.wrapSpanContext({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 });

/** No tracing: what a service without an OTLP endpoint, and the command line, run with. */
export const OFF: Tracing = {
  enabled: false,
  span: (_name, _attributes, work) => work(),
  start: (_name, _attributes, parent) => ({ span: NO_SPAN, context: parent }),
  extract: () => ROOT_CONTEXT,
  flush: async () => undefined,
  shutdown: async () => undefined,
};

type Sdk = typeof import('@opentelemetry/sdk-trace-base');

function samplerOf(sdk: Sdk, config: TracingConfig): Sampler {
  const ratio = () => new sdk.TraceIdRatioBasedSampler(config.samplerArg ?? 1);
  switch (config.sampler) {
    case 'always_on':
      return new sdk.AlwaysOnSampler();
    case 'always_off':
      return new sdk.AlwaysOffSampler();
    case 'traceidratio':
      return ratio();
    case 'parentbased_always_off':
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new sdk.ParentBasedSampler({ root: ratio() });
    default:
      return new sdk.ParentBasedSampler({ root: new sdk.AlwaysOnSampler() });
  }
}

export async function createTracing(config: TracingConfig): Promise<Tracing> {
  if (!config.url) return OFF;
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { resourceFromAttributes }, exporters] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
      config.protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
  propagator ??= new W3CTraceContextPropagator();
  // One context manager for the process (every service in it shares async context tracking).
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  tracingSomewhere = true;
  const exporter = new exporters.OTLPTraceExporter({ url: config.url, headers: config.headers, timeoutMillis: config.timeoutMs });
  const provider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName }),
    sampler: samplerOf(sdk, config),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter, { scheduledDelayMillis: config.scheduleDelayMs, maxQueueSize: 4096 })],
  });
  const tracer: Tracer = provider.getTracer('partner-ordering');
  return {
    enabled: true,
    async span(name, attributes, work, { parent, kind = SpanKind.INTERNAL } = {}) {
      const span = tracer.startSpan(name, { attributes, kind }, parent ?? context.active());
      try {
        return await context.with(trace.setSpan(parent ?? context.active(), span), work);
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
        throw error;
      } finally {
        span.end();
      }
    },
    start(name, attributes, parent, kind = SpanKind.INTERNAL) {
      const span = tracer.startSpan(name, { attributes, kind }, parent);
      return { span, context: trace.setSpan(parent, span) };
    },
    extract: (carrier) => propagator.extract(ROOT_CONTEXT, carrier, getter),
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** A call to another system in a span of its own, its headers carrying that span's traceparent
 * (headers given are kept; a stored traceparent is replaced by the call's). The span's name and
 * attributes are worked out only when tracing is on: every order's calls come through here. */
export async function tracedCall<T>(
  tracing: Tracing,
  describe: () => [name: string, attributes: Attributes],
  headers: Record<string, string>,
  call: (headers: Record<string, string>) => Promise<T & { status: number }>,
): Promise<T & { status: number }> {
  if (!tracing.enabled) return call(headers);
  const [name, attributes] = describe();
  const { span, context: inside } = tracing.start(name, attributes, context.active(), SpanKind.CLIENT);
  const carrier = { ...headers };
  propagator.inject(inside, carrier, setter);
  try {
    const answer = await context.with(inside, () => call(carrier));
    span.setAttribute('http.response.status_code', answer.status);
    if (answer.status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
    return answer;
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
    throw error;
  } finally {
    span.end();
  }
}

/** The active context, when any service of this process traces. */
export const activeContext = (): Context | undefined => (tracingSomewhere ? context.active() : undefined);

/** A database statement's span name and attributes: its verb and table (never values). The
 * statement's text is left out: about fifteen statements an order, each a few hundred
 * characters, were a third of what exporting an order's spans cost; the verb and table name
 * the statement among ours (src/db/sql/). A WITH of writes (PostgreSQL's deferred writes sent as
 * one statement, db/statements.ts) is a BATCH named by each write's verb and table, as
 * OpenTelemetry's conventions name a batch. */
export function statementSpan(system: 'sqlite' | 'postgresql', sql: string): { name: string; attributes: Attributes } {
  const batch = /^WITH\b/.test(sql) ? [...sql.matchAll(/(?:AS \(|\) )(INSERT INTO|UPDATE|DELETE FROM) "(\w+)"/g)] : [];
  if (batch.length) {
    const tables = new Set(batch.map((part) => part[2]));
    return {
      name: `BATCH ${batch.map((part) => `${part[1]!.split(' ')[0]} ${part[2]}`).join(', ')}`,
      attributes: {
        'db.system.name': system,
        'db.operation.name': 'BATCH',
        ...(tables.size === 1 ? { 'db.collection.name': [...tables][0] } : {}),
      },
    };
  }
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? 'SQL';
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+"(\w+)"/i.exec(sql)?.[1];
  return {
    name: table ? `${verb} ${table}` : verb,
    attributes: { 'db.system.name': system, 'db.operation.name': verb, ...(table ? { 'db.collection.name': table } : {}) },
  };
}

/** The same work under a context (a request's, a message's), when there is one. */
export const within = <T>(ctx: Context | undefined, work: () => T): T => (ctx ? context.with(ctx, work) : work());

export { SpanKind, SpanStatusCode };
