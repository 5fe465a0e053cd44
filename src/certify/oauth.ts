// The conformance kit's OAuth checks, the same for a POS and a DSP (docs/pos-vendors.md and
// docs/dsp-channels.md, "Authorization"): the authorize hop as the service's start hop makes it
// (PKCE S256, a state), followed as a person would (redirects, a consent form submitted with its
// own defaults), then the token call by the service's own client (JSON, form-encoded after a 415).
import crypto from 'node:crypto';
import { exchangeCode, exchangeRefreshToken, send, type Caller, type ProviderToken } from '../integrations/provider-client.js';
import { providerUrl, type ProviderInfo } from '../integrations/providers.js';
import { authorizeUrl } from '../modules/onboarding/wire.js';
import { answered, type CheckRun, type KitOptions } from './kit.js';

/** An attribute of a tag, quoted either way or not at all, its entities read. */
const attribute = (tag: string, name: string): string | undefined => {
  const found = new RegExp(`(?:^|\\s)${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, 'i').exec(tag);
  return found ? unescapeHtml(found[1] ?? found[2] ?? found[3] ?? '') : undefined;
};
const unescapeHtml = (text: string) =>
  text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCharCode(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** A button's words: its value, else its text. */
const ALLOWS = /allow|approve|accept|authori[sz]e|connect|consent|grant|continue|yes/i;
const DENIES = /deny|decline|refuse|reject|cancel|not now|\bno\b/i;

/**
 * A page's first form, submitted as a person would: every field with its own value (a checkbox
 * or radio only when checked; `fields` typed over them), and the button that allows (or, with
 * `allow: false`, the one that refuses), read by its value or its words, wherever it stands and
 * however the page writes its attributes. Where it goes (`action`, else the page) and how (its
 * `method`). Null when the page has no form.
 */
export function consentForm(
  html: string,
  pageUrl: string,
  { allow = true, fields = {} }: { allow?: boolean; fields?: Record<string, string> } = {},
): { url: string; method: 'GET' | 'POST'; form: Record<string, string> } | null {
  const form = /<form\b([^>]*)>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return null;
  const values: Record<string, string> = {};
  const buttons: { name?: string; value: string; words: string }[] = [];
  // Each control in its order: a <button> (its tag's attributes, then its words) or an <input>.
  for (const control of form[2]!.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>|<input\b([^>]*)>/gi)) {
    const [tag, words] = control[1] !== undefined ? [control[1], control[2]!.replace(/<[^>]*>/g, '')] : [control[3]!, null];
    const type = (attribute(tag, 'type') ?? (words === null ? 'text' : 'submit')).toLowerCase();
    const name = attribute(tag, 'name');
    const value = attribute(tag, 'value');
    if (type === 'submit' || type === 'image') buttons.push({ name, value: value ?? '', words: `${value ?? ''} ${words ?? ''}` });
    else if (name && type !== 'button' && type !== 'reset' && ((type !== 'checkbox' && type !== 'radio') || /\schecked\b/i.test(tag)))
      values[name] = value ?? (type === 'checkbox' ? 'on' : '');
  }
  const wanted = allow ? ALLOWS : DENIES;
  const button = buttons.find((b) => wanted.test(b.words) && !(allow ? DENIES : ALLOWS).test(b.words)) ?? (allow ? buttons[0] : undefined);
  if (button?.name) values[button.name] = button.value;
  const method = attribute(form[1]!, 'method')?.toUpperCase() === 'GET' ? 'GET' : 'POST';
  return { url: new URL(attribute(form[1]!, 'action') || pageUrl, pageUrl).toString(), method, form: { ...values, ...fields } };
}

/** Follows an authorization from its first URL to the redirect URI: redirects, and forms
 * submitted with their defaults. The redirect's query, or null with what stopped it. */
async function followAuthorization(
  caller: Caller,
  start: string,
  redirectUri: string,
): Promise<{ query: URLSearchParams | null; trail: string[] }> {
  const trail: string[] = [];
  let response = await send(caller, 'GET', start, { retries: 0 });
  let at = start;
  for (let hop = 0; hop < 8; hop++) {
    trail.push(`${answered(response).slice(0, 60)}`);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && typeof location === 'string') {
      const next = new URL(location, at).toString();
      if (next.startsWith(redirectUri)) return { query: new URL(next).searchParams, trail };
      at = next;
      response = await send(caller, 'GET', next, { retries: 0 });
      continue;
    }
    const form = response.status === 200 ? consentForm(response.text, at) : null;
    if (!form) return { query: null, trail };
    at = form.url;
    response =
      form.method === 'GET'
        ? await send(caller, 'GET', `${form.url.split('?')[0]}?${new URLSearchParams(form.form)}`, { retries: 0 })
        : await send(caller, 'POST', form.url, { form: form.form, retries: 0 });
  }
  return { query: null, trail };
}

/** The authorize URL exactly as the service's start hop makes it (the onboarding's own), with a PKCE challenge. */
const authorizeAt = (provider: ProviderInfo, clientId: string, redirectUri: string, state: string, verifier: string) =>
  authorizeUrl(providerUrl(provider, 'authorize'), { clientId, redirectUri, state, verifier });

/** What the OAuth checks leave for the others: the token answer and the access token to call with. */
export type Grant = { token?: ProviderToken; accessToken: string };

/** The OAuth checks, in order; `grant` holds the access token once they have one. */
export function oauthChecks(options: KitOptions, grant: Grant): [string[], CheckRun][] {
  const { caller, provider, listener, say } = options;
  const redirectUri = options.redirectUri ?? `${listener.url}/callback`;
  const clientId = provider.clientId ?? '';
  const verifier = crypto.randomBytes(32).toString('base64url');
  let code = options.code;
  return [
    [
      ['authorize.redirects_with_code'],
      async (record) => {
        const rule = 'the authorize endpoint leads the merchant back to redirect_uri with a code and the same state';
        if (code) return record('authorize.redirects_with_code', true, `the code was given (--code) for ${redirectUri}; ${rule}`);
        const state = crypto.randomBytes(12).toString('base64url');
        const start = authorizeAt(provider, clientId, redirectUri, state, verifier);
        let { query, trail } = await followAuthorization(caller, start, redirectUri);
        if (!query) {
          say(`Open this link in a browser to authorize the kit (waiting 120 s): ${start}`);
          const arrival = await listener.next('/callback', 120_000);
          query = arrival?.query ?? null;
        }
        code = query?.get('code') ?? undefined;
        const sameState = query?.get('state') === state;
        record(
          'authorize.redirects_with_code',
          Boolean(code) && sameState,
          `GET ${start.split('?')[0]} (client_id, response_type=code, redirect_uri ${redirectUri}, state, PKCE S256) → ${trail.join(' → ')}; back at the redirect URI: ${query ? `code ${code ? 'present' : 'missing'}, state ${sameState ? 'the same' : `"${query.get('state')}" (sent "${state}")`}` : 'never'}. Rule: ${rule} (allow ${redirectUri} among your client's redirect URIs)`,
        );
      },
    ],
    [
      ['authorize.refuses_unknown_client'],
      async (record) => {
        const unknown = `certify-unknown-${crypto.randomBytes(4).toString('hex')}`;
        const { query, trail } = await followAuthorization(caller, authorizeAt(provider, unknown, redirectUri, 'x', verifier), redirectUri);
        record(
          'authorize.refuses_unknown_client',
          !query?.get('code'),
          `authorize with client_id ${unknown} → ${trail.join(' → ')}: ${query?.get('code') ? 'a code came back' : 'no code'}. Rule: an unknown client_id gets no code`,
        );
      },
    ],
    [
      ['token.authorization_code', 'token.code_single_use', 'token.refresh'],
      async (record) => {
        if (!code) throw new Error('no authorization code to exchange (authorize.redirects_with_code failed)');
        const token = await exchangeCode(caller, provider, code, redirectUri, options.code ? undefined : verifier);
        grant.token = token;
        grant.accessToken = token.access_token;
        const missing = [
          ['access_token', 'string'],
          ['refresh_token', 'string'],
          ['expire_time', 'number'],
          ['id', 'string'],
        ].filter(([field, type]) => typeof (token as Record<string, unknown>)[field!] !== type);
        record(
          'token.authorization_code',
          missing.length === 0,
          `POST ${providerUrl(provider, 'token')} {grant_type: authorization_code, code, redirect_uri, client_id, client_secret, code_verifier} → ${missing.length ? `missing or mistyped: ${missing.map(([f, t]) => `${f} (${t})`).join(', ')}` : 'access_token, refresh_token, expire_time and id'}. Rule: the code buys access_token, refresh_token, expire_time (a number: epoch ms, epoch seconds or a lifetime in seconds; without it the service cannot tell when to refresh) and id`,
        );
        const again = await exchangeCode(caller, provider, code, redirectUri, options.code ? undefined : verifier).then(
          () => 'a second token',
          (error: Error) => `refused (${error.message})`,
        );
        record('token.code_single_use', again !== 'a second token', `the same code again → ${again}. Rule: a code works once`);
        if (typeof token.refresh_token !== 'string')
          return record('token.refresh', false, 'no refresh_token to use. Rule: grant_type=refresh_token buys a new access token');
        const refreshed = await exchangeRefreshToken(caller, provider, token.refresh_token);
        grant.accessToken = refreshed.access_token;
        record(
          'token.refresh',
          typeof refreshed.access_token === 'string',
          `POST ${providerUrl(provider, 'token')} {grant_type: refresh_token} → a new access_token. Rule: grant_type=refresh_token buys a new access token`,
        );
      },
    ],
  ];
}
