// A test's request to the service: over a socket, or in process.
import type { FastifyInstance } from 'fastify';

/** Where a test's request goes: the service's address (over a socket, as partners call it), or the
 * service's Fastify app (in process, by `inject`: the same routes, hooks and answers, no socket),
 * for the contract tests that need nothing but the answer. */
export type Target = string | Pick<FastifyInstance, 'inject'>;

/** One request to the target, over a socket or in process. */
export async function send(target: Target, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  if (typeof target === 'string') {
    const response = await fetch(`${target}${path}`, { method, headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }
  const response = await target.inject({ method: method as 'GET', url: path, headers, ...(body === undefined ? {} : { payload: body }) });
  const answered = new Headers();
  for (const [name, value] of Object.entries(response.headers)) for (const one of [value ?? []].flat()) answered.append(name, String(one));
  return { status: response.statusCode, headers: answered, text: response.body };
}
