// The idempotency key of an outbox message, as a table: the same cause makes the same key on
// every retry and every instance, and two causes never share one.
import { messageKey, type MessageSubject } from './outbox.js';

test.each<[string, MessageSubject, string]>([
  ['an order to its POS', { purpose: 'order.created', subjectId: 'ord_1' }, 'order.created:ord_1'],
  ["an order's third DSP event", { purpose: 'dsp-event', subjectId: 'ord_1', which: [3] }, 'dsp-event:ord_1:3'],
  ['a store event', { purpose: 'dsp-store-event', subjectId: 'dsp_9', which: [12] }, 'dsp-store-event:dsp_9:12'],
  ['an event to an endpoint', { purpose: 'event', subjectId: 'evt_1', which: ['we_2'] }, 'event:evt_1:we_2'],
  ['a publish of a version to a store', { purpose: 'publish', subjectId: 'dsp_9', which: ['cv_1', 'menus'] }, 'publish:dsp_9:cv_1:menus'],
])('%s: %s', (_case, subject, key) => expect(messageKey(subject)).toBe(key));

test('the same cause makes the same key each time', () => {
  const subject: MessageSubject = { purpose: 'dsp-event', subjectId: 'ord_1', which: [2] };
  expect(messageKey({ ...subject })).toBe(messageKey({ ...subject, which: [2] }));
});

test('different causes never share a key', () => {
  const keys = [
    messageKey({ purpose: 'order.created', subjectId: 'ord_1' }),
    messageKey({ purpose: 'order.canceled', subjectId: 'ord_1' }),
    messageKey({ purpose: 'order.created', subjectId: 'ord_2' }),
    messageKey({ purpose: 'dsp-event', subjectId: 'ord_1', which: [1] }),
    messageKey({ purpose: 'dsp-event', subjectId: 'ord_1', which: [2] }),
    messageKey({ purpose: 'event', subjectId: 'evt_1', which: ['we_1'] }),
    messageKey({ purpose: 'resend', subjectId: 'evt_1', which: ['we_1'] }),
  ];
  expect(new Set(keys).size).toBe(keys.length);
});
