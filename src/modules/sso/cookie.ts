// The dashboard session's cookie: HttpOnly (no script reads it), SameSite=Lax (other sites'
// requests do not carry it, and /graphql checks the origin of those that do), Secure whenever we
// are served over https.

const SESSION_COOKIE = 'merchant_session';

/** The session in a Cookie header, if any. */
export function sessionOf(cookieHeader: string | undefined): string | undefined {
  return cookieHeader
    ?.split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === SESSION_COOKIE)?.[1];
}

/** The Set-Cookie value that starts a session (`maxAge` in seconds), or ends it when `session` is empty. */
export function sessionCookie(publicUrl: string, session: string, maxAge: number): string {
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  return `${SESSION_COOKIE}=${session}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${secure}`;
}
