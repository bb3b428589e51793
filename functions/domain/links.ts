/**
 * Web addresses an integrator hands us as data (an affiliate's website or
 * YouTube channel): checked with the WHATWG URL parser, the one browsers use,
 * so what passes here opens in a browser.
 */

/** Hosts of YouTube links: the site, its subdomains (www, m, music) and the short-link host. */
const YOUTUBE_HOSTS = /^(?:(?:[a-z0-9-]+\.)*youtube\.com|youtu\.be)$/;

/** A YouTube handle: `@` and 3 to 30 letters, digits, periods, underscores or hyphens (YouTube's own rule). */
const YOUTUBE_HANDLE = /^@[\p{L}\p{N}._-]{3,30}$/u;

function parsedHttpUrl(value: string): URL | undefined {
  // The parser forgives a missing scheme slash or inner spaces; a link must be written out in full.
  if (!/^https?:\/\/[^\s/?#]/i.test(value) || /\s/.test(value)) return undefined;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' ? url : undefined;
  } catch {
    return undefined;
  }
}

/** An absolute `http://` or `https://` URL with a host. */
export function isHttpUrl(value: string): boolean {
  return parsedHttpUrl(value) !== undefined;
}

/** A full YouTube URL (`https://www.youtube.com/@name`, `https://youtu.be/…`) or a handle (`@name`). */
export function isYouTubeLink(value: string): boolean {
  if (value.startsWith('@')) return YOUTUBE_HANDLE.test(value);
  const url = parsedHttpUrl(value);
  return url !== undefined && YOUTUBE_HOSTS.test(url.hostname);
}
