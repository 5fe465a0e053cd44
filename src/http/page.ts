// The service's small pages for a person in a browser (the dashboard's greeting and sign-in
// answers): one look, in the dashboard's colours, with its favicon. The texts are ours, never a
// caller's: they may hold markup.

/** A page with a heading and a paragraph (or more, as markup of ours). */
export const htmlPage = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>${title}</title><link rel="icon" href="/favicon.ico"></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;text-align:center;color:#1c2430;line-height:1.5">` +
  `<main><h1>${title}</h1><p>${text}</p></main></body></html>`;

/** Whether the caller is a browser asking for a page (a link followed), not a client asking for JSON. */
export const wantsPage = (accept: string | undefined) => !!accept && /\btext\/html\b/.test(accept);
