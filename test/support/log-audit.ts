/**
 * The log audit's rules (test/audit/logs.test.ts runs them over the shared
 * stack's log; test/unit/support/log-audit.test.ts plants secrets to show they
 * are found). A line fails when it carries a secret, found three ways:
 *
 * - by shape: an API key (`urm_<scope>_…`), a PEM block, an email address
 *   (personal data: logs carry ids), a JSON field named like a secret
 *   (password, token, email body, private key, cookie, …) that holds a value,
 *   also inside a string (a serialised body in a message);
 * - by value: the exact secrets the tests sent and received (recorded by
 *   test/support/secret-recorder.ts) and those the stack holds (the demo keys,
 *   the VAPID private keys);
 * - and it fails when it is not a structured Powertools line with a request
 *   id, unless it is one of the stack's own messages (`[stack] …`).
 */

export interface UsedSecret {
  /** What it is, for the report ("password", "API key"); never the value itself. */
  kind: string;
  value: string;
}

export interface Finding {
  /** 1-based line number in the log. */
  line: number;
  problem: string;
}

/** Shorter values are too likely to occur by chance; the tests' secrets are all longer. */
export const MIN_SECRET_LENGTH = 8;

/** Worth looking for: long enough, and not blank (a test's refused "        " password is no secret, and pads every table). */
const worthFinding = (value: string) => value.trim().length >= MIN_SECRET_LENGTH;

const API_KEY = /urm_(?:server|comms|browser)_[A-Za-z0-9_-]{16,}/;
const PEM = /-----BEGIN [A-Z ]*-----/;
/** An address, not a package path (`/node_modules/@aws-sdk/…`) nor a version (`web-push@3.6.7`). */
const EMAIL_ADDRESS = /(?<![\w.%+-])[\w.%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/;
/** Field names whose value is a secret (or personal content) whatever it looks like. */
const SECRET_FIELD =
  /^(?:password|passwd|new_password|token|sign_in_token|session|session_id|cookie|set-cookie|authorization|x-api-key|api_key|apikey|secret|private_key|privatekey|vapid_private_key|html_body|text_body|auth|urm_(?:web|ios|android)_push_notification_token)$/i;
/** The same names as a key inside serialised JSON, quotes escaped or not, followed by a value. */
const EMBEDDED_SECRET_FIELD =
  /\\*"(password|passwd|token|sign_in_token|session_id|secret|private_?key|vapid_private_key|html_body|text_body|urm_(?:web|ios|android)_push_notification_token)\\*"\s*:\s*(?:\\*"[^"\\]|\[\s*\\*"[^"\\]|\{)/i;

/** Fields every handler line carries: Powertools' structure and the invocation's request id. */
const REQUIRED_FIELDS = ['level', 'message', 'timestamp', 'service', 'function_name', 'function_request_id'] as const;
/** The stack's own messages (poller, server, start-up), which are not handler lines. */
const HARNESS_LINE = /^\[stack\] |^local stack for the tests at /;

function holdsValue(value: unknown): boolean {
  if (typeof value === 'string') return value.length > 0;
  if (Array.isArray(value)) return value.some(holdsValue);
  return typeof value === 'object' && value !== null && Object.keys(value).length > 0;
}

/** Paths of secret-named fields that hold something, anywhere in a parsed line. */
function secretFieldPaths(value: unknown, path = ''): string[] {
  if (Array.isArray(value)) return value.flatMap((item, i) => secretFieldPaths(item, `${path}[${i}]`));
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([name, inner]) => {
    const here = path ? `${path}.${name}` : name;
    if (SECRET_FIELD.test(name) && holdsValue(inner)) return [here];
    return secretFieldPaths(inner, here);
  });
}

/** Exact values, indexed by their first characters, so one pass over a line checks them all. */
class ValueIndex {
  private readonly byPrefix = new Map<string, UsedSecret[]>();

  constructor(secrets: Iterable<UsedSecret>) {
    for (const secret of secrets) {
      if (!worthFinding(secret.value)) continue;
      // As written, and as it reads inside a JSON string (a subscription's quotes are escaped there).
      const forms = new Set([secret.value, JSON.stringify(secret.value).slice(1, -1)]);
      for (const value of forms) {
        const prefix = value.slice(0, MIN_SECRET_LENGTH);
        const list = this.byPrefix.get(prefix) ?? [];
        if (!list.some((known) => known.value === value)) list.push({ kind: secret.kind, value });
        this.byPrefix.set(prefix, list);
      }
    }
  }

  find(line: string): UsedSecret | undefined {
    if (this.byPrefix.size === 0) return undefined;
    for (let i = 0; i + MIN_SECRET_LENGTH <= line.length; i++) {
      const candidates = this.byPrefix.get(line.slice(i, i + MIN_SECRET_LENGTH));
      const hit = candidates?.find((secret) => line.startsWith(secret.value, i));
      if (hit) return hit;
    }
    return undefined;
  }
}

function parsed(line: string): Record<string, unknown> | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Every line that carries a secret, by shape or by one of the given values. */
export function findSecrets(lines: readonly string[], secrets: Iterable<UsedSecret> = []): Finding[] {
  const values = new ValueIndex(secrets);
  const findings: Finding[] = [];
  lines.forEach((line, i) => {
    const report = (problem: string) => findings.push({ line: i + 1, problem });
    if (API_KEY.test(line)) report('an API key');
    if (PEM.test(line)) report('a PEM block (a private key or certificate)');
    if (EMAIL_ADDRESS.test(line)) report('an email address');
    const json = parsed(line);
    const fields = json ? secretFieldPaths(json) : [];
    for (const path of fields) report(`a value in the secret field ${path}`);
    const embedded = EMBEDDED_SECRET_FIELD.exec(line);
    if (embedded && fields.length === 0) report(`a serialised ${embedded[1]} field with a value`);
    const value = values.find(line);
    if (value) report(`the exact value of a ${value.kind}`);
  });
  return findings;
}

/** Every line that is neither the stack's own message nor a structured handler line with a request id. */
export function findUnstructured(lines: readonly string[]): Finding[] {
  const findings: Finding[] = [];
  lines.forEach((line, i) => {
    if (line.trim() === '' || HARNESS_LINE.test(line)) return;
    const json = parsed(line);
    if (!json) {
      findings.push({ line: i + 1, problem: 'not a structured JSON line' });
      return;
    }
    const missing = REQUIRED_FIELDS.filter((field) => typeof json[field] !== 'string' || json[field] === '');
    if (missing.length > 0) findings.push({ line: i + 1, problem: `${String(json.function_name ?? 'a handler')}: no ${missing.join(', ')}` });
    else if (Number.isNaN(Date.parse(json.timestamp as string))) findings.push({ line: i + 1, problem: 'timestamp is not a date' });
  });
  return findings;
}

/** Secret-named fields of a request or answer body, as the recorder notes them (without recursion: bodies may nest deep). */
export function secretFieldsOf(body: unknown): UsedSecret[] {
  const found: UsedSecret[] = [];
  const pending: [unknown, string | undefined][] = [[body, undefined]];
  while (pending.length > 0) {
    const [value, name] = pending.pop()!;
    if (typeof value === 'string') {
      if (name !== undefined && SECRET_FIELD.test(name)) found.push({ kind: name, value });
      // A push token is a serialised subscription: its auth secret is a secret on its own.
      if (name !== undefined && /push_notification_token$/.test(name) && value.startsWith('{')) pending.push([parsedToken(value), undefined]);
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) pending.push([value[i], name]);
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value).reverse()) pending.push([inner, key]);
    }
  }
  return found.filter((secret) => worthFinding(secret.value));
}

function parsedToken(token: string): unknown {
  try {
    return JSON.parse(token);
  } catch {
    return undefined;
  }
}

/** The report of findings: where and what, never the secret itself (CI output is a log too). */
export function describeFindings(findings: readonly Finding[], file: string, limit = 20): string {
  const shown = findings.slice(0, limit).map((finding) => `  ${file}:${finding.line}: ${finding.problem}`);
  const more = findings.length > limit ? [`  … and ${findings.length - limit} more`] : [];
  return [...shown, ...more].join('\n');
}
