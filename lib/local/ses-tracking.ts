/**
 * Open and click tracking on the local SES, as SES does it for a
 * configuration set with open and click events: before the mail is stored,
 * the links of its HTML part point at a tracking address and an open pixel
 * is added; fetching either publishes SES's Open or Click event. Only a
 * campaign's mail (its `campaign_kind` tag) is tracked here, so the mail
 * other tests read keeps its links as written.
 *
 * The tracking address is anyone's to call: a click redirects only to a link
 * the mail really had (by its index, under an unguessable token), never to a
 * URL the request names, and what is kept is bounded (the newest mails).
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { campaignTagNames } from '../../functions/domain/email-events';
import { trackingEvent, type SendEmailRequestBody, type SesEventBridgeEvent } from './ses-simulator';

export const TRACKING_PATH = '/track/';
/** Mails whose pixel and links still answer; older ones 404, like mail sent before a restart. */
const MAX_MAILS = 10_000;
const MAX_LINKS = 1_000;
const MAX_PATH = 200;
const TOKEN = /^[A-Za-z0-9_-]{22}$/;
/** A 1×1 transparent GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const ANCHOR = /<a\b([^>]*?)\bhref\s*=\s*("([^"]*)"|'([^']*)')([^>]*)>/gi;

interface TrackedMail {
  request: SendEmailRequestBody;
  links: string[];
  messageId?: string;
  sentAt?: Date;
}

const decodeEntities = (text: string) =>
  text.replace(/&(amp|quot|#39|lt|gt);/g, (_, name: string) => ({ amp: '&', quot: '"', '#39': "'", lt: '<', gt: '>' })[name] ?? '');

/** The HTML with each http(s) link (but those marked `ses:no-track`, as SES honours) sent through `linkUrl(index)`, and the links in order. */
export function rewriteLinks(html: string, linkUrl: (index: number) => string): { html: string; links: string[] } {
  const links: string[] = [];
  const rewritten = html.replace(ANCHOR, (whole: string, before: string, _quoted: string, double?: string, single?: string, after?: string) => {
    const href = decodeEntities(double ?? single ?? '');
    if (!/^https?:\/\//i.test(href) || /ses:no-track/i.test(`${before}${after}`) || links.length >= MAX_LINKS) return whole;
    links.push(href);
    return `<a${before}href="${linkUrl(links.length - 1)}"${after}>`;
  });
  return { html: rewritten, links };
}

/** The HTML with an open pixel before its closing body tag (or at its end). */
export function withPixel(html: string, pixelUrl: string): string {
  const pixel = `<img src="${pixelUrl}" width="1" height="1" alt="" />`;
  const closing = html.toLowerCase().lastIndexOf('</body>');
  return closing < 0 ? `${html}${pixel}` : `${html.slice(0, closing)}${pixel}${html.slice(closing)}`;
}

export interface SesTracking {
  /** The SendEmail body to pass on (rewritten when the mail is tracked), and what to call once SES answered with its message id. */
  prepare(body: Buffer): { body: Buffer; accepted: (messageId: string | undefined, at: Date) => void };
  /** Answers a request under TRACKING_PATH; false for any other path. */
  serve(req: IncomingMessage, res: ServerResponse): boolean;
}

export function sesTracking(options: { baseUrl: string; region: string; publish: (event: SesEventBridgeEvent) => void }): SesTracking {
  const mails = new Map<string, TrackedMail>();
  const keep = (token: string, mail: TrackedMail) => {
    mails.set(token, mail);
    if (mails.size > MAX_MAILS) mails.delete(mails.keys().next().value as string);
  };
  const untouched = (body: Buffer) => ({ body, accepted: () => undefined });

  return {
    prepare(body) {
      let request: SendEmailRequestBody;
      try {
        request = JSON.parse(body.toString('utf8')) as SendEmailRequestBody;
      } catch {
        return untouched(body);
      }
      const html = request?.Content?.Simple?.Body?.Html;
      const tracked = Array.isArray(request.EmailTags) && request.EmailTags.some((tag) => tag?.Name === campaignTagNames.kind);
      if (!tracked || typeof html?.Data !== 'string') return untouched(body);
      const token = randomBytes(16).toString('base64url');
      const rewritten = rewriteLinks(html.Data, (index) => `${options.baseUrl}${TRACKING_PATH}click/${token}/${index}`);
      html.Data = withPixel(rewritten.html, `${options.baseUrl}${TRACKING_PATH}open/${token}.gif`);
      const mail: TrackedMail = { request, links: rewritten.links };
      return {
        body: Buffer.from(JSON.stringify(request), 'utf8'),
        accepted: (messageId, at) => {
          if (messageId === undefined) return;
          keep(token, { ...mail, messageId, sentAt: at });
        },
      };
    },

    serve(req, res) {
      const path = (req.url ?? '').split('?')[0];
      if (!path.startsWith(TRACKING_PATH)) return false;
      const notFound = () => res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found');
      if (req.method !== 'GET' || path.length > MAX_PATH) {
        notFound();
        return true;
      }
      const [what, first, second, ...more] = path.slice(TRACKING_PATH.length).split('/');
      const token = what === 'open' ? first?.replace(/\.gif$/, '') : first;
      const mail = token !== undefined && TOKEN.test(token) ? mails.get(token) : undefined;
      if (!mail?.messageId || !mail.sentAt || more.length > 0) {
        notFound();
        return true;
      }
      const userAgent = String(req.headers['user-agent'] ?? '').slice(0, 256);
      if (what === 'open' && second === undefined) {
        options.publish(trackingEvent(mail.request, mail.messageId, mail.sentAt, options.region, { type: 'Open', at: new Date(), userAgent }));
        res.writeHead(200, { 'content-type': 'image/gif', 'cache-control': 'no-store', 'content-length': String(PIXEL.length) }).end(PIXEL);
        return true;
      }
      const index = what === 'click' && second !== undefined && /^\d{1,4}$/.test(second) ? Number(second) : -1;
      const link = mail.links[index];
      if (link === undefined) {
        notFound();
        return true;
      }
      options.publish(trackingEvent(mail.request, mail.messageId, mail.sentAt, options.region, { type: 'Click', at: new Date(), userAgent, link }));
      res.writeHead(302, { location: link, 'cache-control': 'no-store' }).end();
      return true;
    },
  };
}
