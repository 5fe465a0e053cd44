// A merchant's browser, scripted: follows an onboarding's entry_url through our start hop, the
// provider's consent form (whatever its markup: read as the conformance kit reads it) and our
// callback. Used by the demo and the tests.
import { consentForm } from '../certify/oauth.js';

async function hop(url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init });
}

/** Follows entry_url like a browser: our start hop, the provider's consent form (submitted with
 * its own fields, the merchant's email typed in, and the button that allows or the one that
 * refuses), our callback. A provider that asks nothing sends the browser straight back. */
export async function authorizeInBrowser(entryUrl: string, decision: 'allow' | 'deny' = 'allow') {
  const start = await hop(entryUrl);
  if (start.status !== 302) throw new Error(`start hop answered ${start.status}`);
  const authorizeUrl = new URL(start.headers.get('location')!);
  let answer = await hop(authorizeUrl.toString());
  if (answer.status === 200) {
    const html = await answer.text();
    const form = consentForm(html, authorizeUrl.toString(), {
      allow: decision === 'allow',
      fields: { email: 'owner@sandbox-grill.example' },
    });
    if (!form) throw new Error(`no consent form: ${html.slice(0, 200)}`);
    const body = new URLSearchParams(form.form).toString();
    answer =
      form.method === 'GET'
        ? await hop(`${form.url.split('?')[0]}?${body}`)
        : await hop(form.url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
  }
  const callbackUrl = answer.headers.get('location');
  if (!callbackUrl) throw new Error(`the provider's authorization answered ${answer.status}: ${(await answer.text()).slice(0, 200)}`);
  const callback = await hop(callbackUrl);
  if (callback.status !== 302) throw new Error(`callback answered ${callback.status}: ${await callback.text()}`);
  const returned = new URL(callback.headers.get('location')!);
  return {
    authorizeUrl,
    callbackUrl,
    returned,
    code: returned.searchParams.get('code'),
    onboardingId: returned.searchParams.get('onboarding_id'),
  };
}
