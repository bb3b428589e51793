/**
 * Email: the rules every header field follows (docs/api.md, "Email"), how a
 * recipient is written with its name (RFC 5322, RFC 2047), and the Mailer
 * port that sends a composed message.
 */
import { MiB } from './limits';

export const emailLimits = {
  /** SES's own limit of recipients in one message. */
  recipients: 50,
  /** RFC 5321's bound on a forward path, less its angle brackets. */
  addressLength: 254,
  nameLength: 100,
  /** RFC 5322's line length; SES encodes and folds the subject. */
  subjectLength: 998,
  /** Each of html_body and text_body, as UTF-8. */
  bodyBytes: 256 * 1024,
  /** Both bodies at their limit, JSON-escaped, fit with room to spare. */
  requestBytes: MiB,
  channelIdLength: 64,
  channelNameLength: 200,
} as const;

/**
 * Text that goes into a header: no control characters (CR and LF among them),
 * no Unicode line or paragraph separators, no lone surrogates. This is what
 * makes header injection impossible.
 */
export const headerTextSchema = {
  type: 'string',
  pattern: '^[^\\p{Cc}\\p{Cs}\\p{Zl}\\p{Zp}]*$',
  description: 'free of line breaks and control characters',
} as const;

/** An ASCII addr-spec (internationalised domains in punycode): nothing that could break out of a header. */
export const emailAddressSchema = { type: 'string', format: 'email', maxLength: emailLimits.addressLength } as const;

/** A display name: 1 to 100 characters of header text. */
export const displayNameSchema = { ...headerTextSchema, minLength: 1, maxLength: emailLimits.nameLength } as const;

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** 45 bytes are 60 base64 characters: with `=?UTF-8?B?` and `?=`, 72, within RFC 2047's 75. */
const WORD_BYTES = 45;

/**
 * RFC 2047 encoded-words (UTF-8, base64) for a name that is not plain ASCII.
 * Words are cut between code points, so each decodes on its own; decoders
 * join adjacent encoded-words without the space between them.
 */
export function encodedWords(text: string): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (const character of text) {
    if (chunk !== '' && Buffer.byteLength(chunk + character, 'utf8') > WORD_BYTES) {
      chunks.push(chunk);
      chunk = '';
    }
    chunk += character;
  }
  if (chunk !== '') chunks.push(chunk);
  return chunks.map((part) => `=?UTF-8?B?${Buffer.from(part, 'utf8').toString('base64')}?=`);
}

/**
 * A display name as RFC 5322 wants it: printable ASCII as a quoted-string
 * (`"Lee, Ann \"A\""`); anything else as encoded-words, which must not be
 * quoted (RFC 2047 section 5).
 */
export function displayName(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return `"${name.replace(/["\\]/g, '\\$&')}"`;
  return encodedWords(name).join(' ');
}

/** `"Ann Lee" <ann@example.com>`, or the bare address when there is no name. */
export function formatAddress(email: string, name?: string): string {
  return name === undefined || name === '' ? email : `${displayName(name)} <${email}>`;
}

/** The domain of an addr-spec, lower-case: domains compare case-insensitively (RFC 5321), local parts do not. */
export function addressDomain(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1).toLowerCase();
}

/**
 * An address with its domain in lower case and its local part as given: the
 * same mailbox, and the form SES's `ses:FromAddress` condition (a
 * case-sensitive match) is written for.
 */
export function canonicalAddress(address: string): string {
  const at = address.lastIndexOf('@');
  return at < 0 ? address : `${address.slice(0, at)}@${address.slice(at + 1).toLowerCase()}`;
}

/** A message ready to send: every address already formatted. */
export interface OutgoingMail {
  from: string;
  to: string[];
  replyTo: string[];
  subject: string;
  html?: string;
  text?: string;
  /** Ids the mail service attaches to its sending events (bounces, complaints). */
  tags: Record<string, string>;
  /** Extra header fields (List-Unsubscribe): names and values urm composes, never a caller's text. */
  headers?: { name: string; value: string }[];
}

/** Port: sends one message and answers the mail service's message id. */
export interface Mailer {
  send(mail: OutgoingMail): Promise<string>;
}
