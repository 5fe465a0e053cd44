// One page-size policy for every list the API answers: a whole number from 1 to the list's
// largest page, its default when omitted. Anything else is 400 naming the argument, never a
// silent clamp (a client that asked for 500 and got 200 would think it had them all).
import { Invalid } from './errors.js';

export type PageSize = { name: string; default: number; max: number };

/** The page size asked for, checked; some lists take it as a string (the flags' search). */
export function pageSize(value: number | string | null | undefined, page: PageSize): number {
  if (value === undefined || value === null) return page.default;
  const size = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof size !== 'number' || !Number.isInteger(size) || size < 1 || size > page.max)
    throw new Invalid(`${page.name} must be a whole number from 1 to ${page.max}`);
  return size;
}
