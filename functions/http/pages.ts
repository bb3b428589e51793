/**
 * The plain pages a browser-facing address answers with when it has no product page of its own (an error, a refused
 * link): one small layout, every piece of user data through `escapeHtml`.
 */
import { escapeHtml } from './html';

const style = `
  body { font: 16px/1.5 system-ui, sans-serif; color: #1d2330; background: #f4f6fa; margin: 0; }
  main { max-width: 32rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0, 0, 0, 0.1); }
  h1 { font-size: 1.4rem; margin-top: 0; }
  .muted { color: #5a6275; }
  button { font: inherit; padding: 0.5rem 1rem; border: 0; border-radius: 4px; background: #2452c8; color: #fff; cursor: pointer; }
  a { color: #2452c8; }
`;

export function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}

export function errorPage(): string {
  return layout('Something went wrong', `<h1>Something went wrong</h1>\n<p>Please try again in a moment.</p>`);
}

/** An address nothing answers (a browser-facing function's router found no route). */
export function notFoundPage(): string {
  return layout('Not found', `<h1>There is no such page</h1>\n<p>Check the address, or start again from your application.</p>`);
}
