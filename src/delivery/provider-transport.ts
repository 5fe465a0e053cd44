// Messages to providers (a POS, a DSP, an event provider): a POST of the stored bytes to the
// provider's operation (opened first when they hold what is not stored in clear: an order's
// customer), with the merchant's OAuth token when the message names its onboarding, and
// `X-Service-Signature` for those that check who sends them events (DSPs, event providers).
// A 2xx is taken; a refusal (any other 4xx) is final: retrying cannot change the provider's mind.
// A provider that does not answer at all is told to the operator's log, with where it was called.
import type { Services } from '../services.js';
import { callForOnboarding, describeFailure, send, type ProviderResponse } from '../integrations/provider-client.js';
import { providerUrl, requireProvider, type ProviderInfo } from '../integrations/providers.js';
import { signBody } from '../common/signatures.js';
import { ReauthorizationRequired } from '../common/errors.js';
import { notYet, type AnswerChecks, type Message, type OutcomeHandlers, type Sent, type Transport } from './worker.js';

/** What a stored message becomes just before it is sent: its body and headers as they go out (the
 * composition root's: an order's customer opened with the key its headers carry, which does not
 * go out). */
export type Opener = (stored: { body: string; headers: Record<string, string> }) => { body: string; headers: Record<string, string> };

/** A warning of a provider that does not answer goes out at its first call in a row that finds no
 * one, and at every tenth after (the 11th, the 21st…): an operator hears of an outage at once
 * and is reminded while it lasts, without a line per retry. */
const WARN_EVERY = 10;

/** The transport to providers, with what each kind of message's outcome writes (a menu publish
 * settled, an order taken), what a 2xx must hold (the POS's order id) and how a stored message is
 * opened. */
export function providerTransport(services: Services, outcomes: OutcomeHandlers, answerChecks: AnswerChecks, open: Opener): Transport {
  /** Calls in a row that found no one, by destination (a provider's operation's URL). */
  const unanswered = new Map<string, number>();
  const heard = (source: string, url: string, error: string | null) => {
    const before = unanswered.get(url) ?? 0;
    if (error === null) {
      unanswered.delete(url);
      if (before) services.log.info({ provider: source, url, failures: before }, `${source} answers again at ${url}`);
      return;
    }
    unanswered.set(url, before + 1);
    if (before % WARN_EVERY === 0)
      services.log.warn(
        { provider: source, url, failures: before + 1, error },
        `${source} does not answer at ${url} (${before + 1} call${before ? 's' : ''} in a row): the outbox keeps its messages and tries again`,
      );
  };
  const call = async (message: Message, provider: ProviderInfo, url: string): Promise<ProviderResponse> => {
    const stored = open({ body: message.body, headers: message.headers ? (JSON.parse(message.headers) as Record<string, string>) : {} });
    const headers: Record<string, string> = {
      ...stored.headers,
      'idempotency-key': message.idempotencyKey,
      'content-type': 'application/json',
    };
    // The bytes go out as they are signed: the signature is over what is sent, opened.
    const body = stored.body;
    // Event providers and DSPs check who sends them events: X-Service-Signature, HMAC-SHA256 of
    // the body with their webhook secret. A POS is called with the merchant's token only.
    if (provider.kind !== 'pos' && provider.webhookSecret) headers['x-service-signature'] = signBody(body, provider.webhookSecret);
    if (message.onboardingId)
      return callForOnboarding(services, message.source, message.onboardingId, message.operation as never, {
        method: 'POST',
        headers,
        body,
        retries: 0,
      });
    return send(services, 'POST', url, { headers, body, retries: 0 });
  };
  return {
    name: 'delivery',
    scope: { share: () => ({ endpoints: false }) },
    outcomes,
    answerChecks,
    async send(message): Promise<Sent> {
      let url: string | undefined;
      let response: ProviderResponse;
      try {
        const provider = await requireProvider(services, message.source);
        url = providerUrl(provider, message.operation as never);
        response = await call(message, provider, url);
      } catch (failure) {
        // Not the receiver's failure, and no attempt of it: the message waits until a new
        // onboarding of the same account sends it on (modules/onboarding).
        if (failure instanceof ReauthorizationRequired) return { instead: { status: 'waiting', error: failure.message } };
        if (url) heard(message.source, url, (failure as Error).message);
        return { answer: { status: null, error: (failure as Error).message }, verdict: 'retry' };
      }
      heard(message.source, url, null);
      const { status, body, headers } = response;
      if (status >= 200 && status < 300) return { answer: { status, body, headers, error: null }, verdict: 'delivered' };
      return { answer: { status, body, headers, error: describeFailure(response) }, verdict: notYet(status) ? 'retry' : 'refused' };
    },
  };
}
