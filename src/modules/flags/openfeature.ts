// An OpenFeature provider over our own evaluation, so code inside the service reads the
// service's flags (owner "service") the standard way: client.getBooleanValue(key, default, ctx).
// A flag that is not defined answers the caller's default (reason ERROR, FLAG_NOT_FOUND).
import {
  ErrorCode,
  NOOP_PROVIDER,
  OpenFeature,
  type Client,
  type EvaluationContext,
  type JsonValue,
  type Provider,
  type ResolutionDetails,
} from '@openfeature/server-sdk';
import crypto from 'node:crypto';
import type { Db } from '../../db/client.js';
import { AppError } from '../../common/errors.js';
import { SERVICE_OWNER, evaluateFlag } from './service.js';

export class ServiceFlagsProvider implements Provider {
  readonly metadata = { name: 'partner-ordering-flags' } as const;
  readonly runsOn = 'server' as const;

  constructor(
    private db: Db | undefined,
    private readonly owner = SERVICE_OWNER,
  ) {}

  /** Called by OpenFeature when this provider is replaced (the service instance stopped). Its
   * registry keeps replaced providers reachable from event handlers it never removes, so the
   * database client is let go of here rather than with the provider. */
  async onClose(): Promise<void> {
    this.db = undefined;
  }

  private async resolve<T>(
    flagKey: string,
    defaultValue: T,
    context: EvaluationContext,
    accepts: (v: unknown) => v is T,
  ): Promise<ResolutionDetails<T>> {
    if (!this.db)
      return {
        value: defaultValue,
        reason: 'ERROR',
        errorCode: ErrorCode.PROVIDER_NOT_READY,
        errorMessage: 'this service instance has stopped',
      };
    try {
      const result = await evaluateFlag(this.db, this.owner, flagKey, { key: context.targetingKey, kind: context.kind ?? 'user' });
      if (!accepts(result.value)) return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH };
      return {
        value: result.value,
        reason: result.reason === 'FALLTHROUGH' ? 'DEFAULT' : result.reason === 'OFF' ? 'DISABLED' : 'TARGETING_MATCH',
        variant: result.reason,
      };
    } catch (error) {
      const notFound = error instanceof AppError && error.statusCode === 404;
      const invalid = error instanceof AppError && error.statusCode === 400;
      return {
        value: defaultValue,
        reason: 'ERROR',
        errorCode: notFound ? ErrorCode.FLAG_NOT_FOUND : invalid ? ErrorCode.TARGETING_KEY_MISSING : ErrorCode.GENERAL,
        errorMessage: (error as Error).message,
      };
    }
  }

  resolveBooleanEvaluation(flagKey: string, defaultValue: boolean, context: EvaluationContext) {
    return this.resolve(flagKey, defaultValue, context, (v): v is boolean => typeof v === 'boolean');
  }
  resolveStringEvaluation(flagKey: string, defaultValue: string, context: EvaluationContext) {
    return this.resolve(flagKey, defaultValue, context, (v): v is string => typeof v === 'string');
  }
  resolveNumberEvaluation(flagKey: string, defaultValue: number, context: EvaluationContext) {
    return this.resolve(flagKey, defaultValue, context, (v): v is number => typeof v === 'number');
  }
  resolveObjectEvaluation<T extends JsonValue>(flagKey: string, defaultValue: T, context: EvaluationContext) {
    return this.resolve(flagKey, defaultValue, context, (v): v is T => v !== null && typeof v === 'object');
  }
}

/** A client bound to this service instance's provider (a domain of its own, so several
 * instances in one process, as in tests, do not share one), and `release` for when the instance
 * stops. OpenFeature's registry is global and cannot forget a domain: without `release`, every
 * stopped instance's database client (about 4 MB of Prisma's query compiler) stayed reachable
 * from it for the life of the process. */
export async function featureClient(db: Db): Promise<{ client: Client; release: () => Promise<void> }> {
  const domain = `partner-ordering-${crypto.randomUUID()}`;
  await OpenFeature.setProviderAndWait(domain, new ServiceFlagsProvider(db));
  return { client: OpenFeature.getClient(domain), release: () => OpenFeature.setProviderAndWait(domain, NOOP_PROVIDER) };
}

/** Our switch of docs/reference.md § POS interface: flag `pos-connection-notices`, context kind `provider` keyed by
 * the provider's source; when the flag is not defined, the provider registration decides. */
export const CONNECTION_NOTICES_FLAG = 'pos-connection-notices';
