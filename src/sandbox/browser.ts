// A merchant's browser, scripted: follows an onboarding's entry_url through our start hop, the
// sandbox POS's consent form and our callback. Used by the demo and the tests.

const decodeHtml = (s: string) => s.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));

async function hop(url: string, init?: RequestInit): Promise<Response> {
  return fetch(url, { redirect: 'manual', ...init });
}

/** Follows entry_url like a browser: our start hop, the POS's consent form, our callback. */
export async function authorizeInBrowser(entryUrl: string, decision: 'allow' | 'deny' = 'allow') {
  const start = await hop(entryUrl);
  if (start.status !== 302) throw new Error(`start hop answered ${start.status}`);
  const authorizeUrl = new URL(start.headers.get('location')!);
  const form = await hop(authorizeUrl.toString());
  const html = await form.text();
  if (!html.includes('<form')) throw new Error(`no consent form: ${html.slice(0, 200)}`);
  // Submit the consent form as a browser would: its hidden fields (client, redirect, state, PKCE
  // challenge) as the page gives them, with the merchant's email and decision.
  const hidden = Object.fromEntries(
    [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, decodeHtml(m[2]!)]),
  );
  const consent = await hop(new URL('/v1/authorize', authorizeUrl).toString(), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...hidden, email: 'owner@sandbox-grill.example', decision }).toString(),
  });
  const callbackUrl = consent.headers.get('location')!;
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
