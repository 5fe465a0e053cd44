import crypto from 'node:crypto';
import { signBody, verifySignature } from './signature.js';

const body = Buffer.from('{"type":"location.catalog.updated","object":{"location_id":"loc_1"}}');

test('hex and base64 signatures of the exact bytes verify; anything else does not', () => {
  const hex = signBody(body, 'secret');
  const base64 = crypto.createHmac('sha256', 'secret').update(body).digest('base64');
  expect(verifySignature(body, hex, 'secret')).toBe(true);
  expect(verifySignature(body, hex.toUpperCase(), 'secret')).toBe(true);
  expect(verifySignature(body, `sha256=${hex}`, 'secret')).toBe(true);
  expect(verifySignature(body, base64, 'secret')).toBe(true);
  expect(verifySignature(body, hex, 'other-secret')).toBe(false);
  expect(verifySignature(Buffer.from(`${body} `), hex, 'secret')).toBe(false);
  expect(verifySignature(body, undefined, 'secret')).toBe(false);
  expect(verifySignature(body, '', 'secret')).toBe(false);
  expect(verifySignature(body, 'zz', 'secret')).toBe(false);
});
