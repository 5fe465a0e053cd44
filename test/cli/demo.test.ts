// `npm run demo` keeps working: it walks every step against its own service and sandbox.
import { runDemo } from '../../src/cli/demo.js';

test('the demo walks the onboarding to the end', async () => {
  const steps: string[] = [];
  await runDemo((title) => steps.push(title));
  expect(steps[steps.length - 1]).toBe('done');
  expect(steps.some((s) => s.startsWith('13. SSO'))).toBe(true);
});
