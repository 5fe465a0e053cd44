// An OpenFeature provider over our own evaluation, so code inside the service reads the
// service's flags (owner "service") the standard way: client.getBooleanValue(key, default, ctx).
// A flag that is not defined answers the caller's default (reason ERROR, FLAG_NOT_FOUND).
import { ErrorCode, OpenFeature, type Client, type EvaluationContext, type JsonValue, type Provider, type ResolutionDetails } from '@openfeature/server-sdk';
import crypto from 'node:crypto';
import type { Db } from '../../db/client.js';
import { AppError } from '../../errors.js';
import { SERVICE_OWNER, evaluateFlag } from './service.js';

export class ServiceFlagsProvider implements Provider {
  readonly metadata = { name: 'partner-ordering-flags' } as const;
  readonly runsOn = 'server' as const;

  constructor(
    private readonly db: Db,
    private readonly owner = SERVICE_OWNER,
  ) {}

  private async resolve<T>(flagKey: string, defaultValue: T, context: EvaluationContext, accepts: (v: unknown) => v is T): Promise<ResolutionDetails<T>> {
    try {
      const result = await evaluateFlag(this.db, this.owner, flagKey, { key: context.targetingKey, kind: context.kind ?? 'user' });
      if (!accepts(result.value)) return { value: defaultValue, reason: 'ERROR', errorCode: ErrorCode.TYPE_MISMATCH };
      return { value: result.value, reason: result.reason === 'FALLTHROUGH' ? 'DEFAULT' : result.reason === 'OFF' ? 'DISABLED' : 'TARGETING_MATCH', variant: result.reason };
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
 * instances in one process, as in tests, do not share one). */
export async function featureClient(db: Db): Promise<Client> {
  const domain = `partner-ordering-${crypto.randomUUID()}`;
  await OpenFeature.setProviderAndWait(domain, new ServiceFlagsProvider(db));
  return OpenFeature.getClient(domain);
}

/** Our switch of SPEC.md 4.2: flag `pos-connection-notices`, context kind `provider` keyed by
 * the provider's source; when the flag is not defined, the provider registration decides. */
export const CONNECTION_NOTICES_FLAG = 'pos-connection-notices';
