// A consent form read as a person submits it, whatever the provider's markup: its own fields with
// their values, the button that allows (or refuses), where it goes and how.
import { consentForm } from './oauth.js';

const PAGE = 'https://dsp.example/v1/authorize?client_id=c&state=s';

describe('a consent form, submitted', () => {
  test.each<[string, string, ReturnType<typeof consentForm>]>([
    [
      "the sandbox's: hidden fields, an email, Allow and Deny buttons of one name",
      `<form method="post" action="/v1/authorize"><input type="hidden" name="client_id" value="c"><input type="hidden" name="redirect_uri" value="https://svc.example/v1/onboarding/callback">
       <input type="hidden" name="state" value="s&#43;1"><label>Email <input name="email" type="email" value="owner@x.example" required></label>
       <button name="decision" value="allow" type="submit">Allow</button> <button name="decision" value="deny" type="submit">Deny</button></form>`,
      {
        url: 'https://dsp.example/v1/authorize',
        method: 'POST',
        form: {
          client_id: 'c',
          redirect_uri: 'https://svc.example/v1/onboarding/callback',
          state: 's+1',
          email: 'owner@x.example',
          decision: 'allow',
        },
      },
    ],
    [
      'single quotes, attributes in any order, the refusing button first, the allowing one known by its words',
      `<FORM ACTION='/v1/consent' METHOD='POST'><input value='r1' type='hidden' name='request'><input name=csrf type=hidden value=t0k3n>
       <button type='submit' name='answer' value='reject'>Not now</button><button type='submit' name='answer' value='a'><b>Connect</b> Taqueria</button></FORM>`,
      { url: 'https://dsp.example/v1/consent', method: 'POST', form: { request: 'r1', csrf: 't0k3n', answer: 'a' } },
    ],
    [
      'checkboxes sent only when checked, a checkbox without a value as "on", submit inputs as buttons',
      `<form><input type="checkbox" name="menus" checked><input type="checkbox" name="ads" value="yes"><input type="radio" name="plan" value="a"><input type="radio" name="plan" value="b" checked>
       <input type="submit" name="go" value="Cancel"><input type="submit" name="go" value="Authorize"></form>`,
      { url: PAGE, method: 'POST', form: { menus: 'on', plan: 'b', go: 'Authorize' } },
    ],
    [
      'a GET form, its action absolute, a button with no name',
      `<form method="get" action="https://login.dsp.example/consent?x=1"><input type="hidden" name="ticket" value="9"><button>Yes, allow</button></form>`,
      { url: 'https://login.dsp.example/consent?x=1', method: 'GET', form: { ticket: '9' } },
    ],
    ['no form: nothing to submit (a page that only explains)', '<p>This application is not known to us.</p>', null],
  ])('%s', (_case, html, submitted) => expect(consentForm(html, PAGE)).toEqual(submitted));

  test('refused: the button that refuses, and the fields the merchant typed over the form’s own', () => {
    const html = `<form action="/ok"><input name="email" value="a@b.example"><button name="d" value="yes">Allow</button><button name="d" value="no">Deny</button></form>`;
    expect(consentForm(html, PAGE, { allow: false, fields: { email: 'owner@c.example' } })).toEqual({
      url: 'https://dsp.example/ok',
      method: 'POST',
      form: { email: 'owner@c.example', d: 'no' },
    });
  });
});
