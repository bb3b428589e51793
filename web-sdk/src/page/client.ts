/**
 * The methods of `window.urmNotification` and what initNotification does in
 * each notification permission state (docs/api.md, "The SDK"), over the
 * browser objects they need, which tests replace.
 */
import { callApi, writeRecords } from '../shared/api';
import { ANDROID_TOKENS, IOS_TOKENS, profileRecord, PROOF, RECEIVES, TOKENS, type Fields } from '../shared/records';
import { base64UrlToBytes, sameKey, tokenOf, type SubscriptionJson } from '../shared/subscription';
import { Identity, type KeyValueStore } from './identity';
import { readProof, readSettings, type Settings } from './settings';

export interface SubscriptionLike {
  options?: { applicationServerKey: ArrayBuffer | null } | null;
  toJSON(): SubscriptionJson;
  unsubscribe(): Promise<boolean>;
}

export interface RegistrationLike {
  pushManager: {
    getSubscription(): Promise<SubscriptionLike | null>;
    subscribe(options: { userVisibleOnly: boolean; applicationServerKey: Uint8Array<ArrayBuffer> }): Promise<SubscriptionLike>;
  };
  unregister(): Promise<boolean>;
}

export interface BrowserEnv {
  notifications?: { readonly permission: NotificationPermission; requestPermission(): Promise<NotificationPermission> };
  serviceWorker?: {
    register(url: string, options: { scope: string }): Promise<unknown>;
    readonly ready: Promise<RegistrationLike>;
    getRegistration(clientUrl: string): Promise<RegistrationLike | undefined>;
  };
  pushSupported: boolean;
  secureContext: boolean;
  storage: KeyValueStore;
  fetch: typeof fetch;
  newId: () => string;
  now: () => Date;
  /** Waits between re-sends of failed records; tests replace it. */
  wait?: (ms: number) => Promise<void>;
  /** The origin the script was loaded from. */
  defaultApiUrl?: string;
}

export interface InitResult {
  permission: NotificationPermission;
  subscribed: boolean;
  /** The profile the token was stored on; absent when nothing was stored. */
  profileId?: string;
}

/** The service worker, at the site root so that its scope is the whole site (docs/api.md, "Names and addresses"). */
export const WORKER_PATH = '/urmSDKWorker.js';

/** The worker learns where to report, and with which key, from its own address. */
export function workerUrl(settings: Settings): string {
  const query = new URLSearchParams({ apiUrl: settings.apiUrl, appId: settings.appId, apiKey: settings.apiKey });
  return `${WORKER_PATH}?${query}`;
}

/** The browser's subscription for this key: kept when it was made with it, replaced otherwise (a rotated key). */
export async function subscribe(registration: RegistrationLike, vapidPublicKey: string): Promise<SubscriptionLike> {
  const key = base64UrlToBytes(vapidPublicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && sameKey(existing.options?.applicationServerKey, key)) return existing;
  if (existing) await existing.unsubscribe();
  try {
    return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    // The browser's own push service refused or could not be reached (offline, private window).
    throw new Error(`urmNotification: the browser could not subscribe to push (${(error as Error).message})`);
  }
}

export class UrmNotification {
  private settings?: Settings;
  private identity?: Identity;
  /** A profile id (and its proof) set before initNotification: adopted by it. */
  private pending?: { id: string; proof?: string };

  constructor(private readonly env: BrowserEnv) {}

  async initNotification(input: unknown): Promise<InitResult> {
    const settings = readSettings(input, this.env.defaultApiUrl);
    const { notifications, serviceWorker } = this.env;
    if (!notifications || !serviceWorker || !this.env.pushSupported) {
      throw new Error('urmNotification: this browser supports no service workers or web push');
    }
    if (!this.env.secureContext) throw new Error('urmNotification: web push needs a secure origin (HTTPS or localhost)');
    this.settings = settings;
    this.identity = new Identity(this.env.storage, settings.appId, this.env.newId);

    let permission = notifications.permission;
    if (permission === 'default') permission = await notifications.requestPermission();
    // Denied, or the prompt dismissed: no subscription, nothing stored. Only the browser's settings undo a denial.
    if (permission !== 'granted') return { permission, subscribed: false };

    const known = settings.profileId ? { id: settings.profileId, proof: settings.profileIdHash } : this.pending;
    this.pending = undefined;
    const records = known ? this.adopt(known.id, known.proof) : [];
    const profileId = this.identity.profileId();

    await serviceWorker.register(workerUrl(settings), { scope: '/' });
    const registration = await serviceWorker.ready;
    const config = await callApi<{ vapid_public_key: string }>(settings, 'GET', '/push/config', undefined, this.env.fetch);
    const token = tokenOf((await subscribe(registration, config.vapid_public_key)).toJSON());
    // One request: the merge, then the profile (created if missing) with this browser's token.
    records.push(...this.tokenRecords(profileId, token, { urm_set_if_null: { [RECEIVES]: true } }));
    await this.post(records);
    this.identity.setToken(token);
    return { permission, subscribed: true, profileId };
  }

  enablePushNotification(): Promise<void> {
    return this.setReceives(true);
  }

  /** The profile stops receiving; the browser's subscription is kept. */
  disablePushNotification(): Promise<void> {
    return this.setReceives(false);
  }

  /** Unsubscribes this browser, unregisters the worker and removes this device's token from the profile. */
  async disablePushNotificationPermanent(): Promise<void> {
    const { identity } = this.ready();
    const registration = await this.env.serviceWorker?.getRegistration('/');
    if (!registration) throw new Error('urmNotification: no service worker is registered for this site');
    const subscription = await registration.pushManager.getSubscription();
    if (!subscription) throw new Error('urmNotification: this browser has no push subscription');
    const tokens = [tokenOf(subscription.toJSON())];
    const stored = identity.token();
    if (stored && stored !== tokens[0]) tokens.push(stored);
    await subscription.unsubscribe();
    await registration.unregister();
    await this.post([this.record(identity.profileId(), { urm_remove: { [TOKENS]: tokens } })]);
    identity.setToken(null);
  }

  /** Empties the profile's web, iOS and Android tokens: no device of it receives any more. */
  async disablePushNotificationPermanentAllDevice(): Promise<void> {
    const { identity } = this.ready();
    await this.post([this.record(identity.profileId(), { urm_set: { [TOKENS]: [], [IOS_TOKENS]: [], [ANDROID_TOKENS]: [] } })]);
    identity.setToken(null);
  }

  /** Attaches a token (a push subscription as JSON) to the current profile, replacing this browser's previous one. */
  async setPushNotificationToken(token: unknown): Promise<void> {
    const { identity } = this.ready();
    if (typeof token !== 'string' || token.length === 0 || token.length > 4096) {
      throw new Error('urmNotification: a token is a push subscription as a JSON string of at most 4096 characters');
    }
    await this.post(this.tokenRecords(identity.profileId(), token, {}));
    identity.setToken(token);
  }

  /**
   * The visitor is now `id`, proved by `hash` (hex HMAC-SHA256 of the id with
   * the application's identity secret, from the site's server): an anonymous
   * profile is merged into it, and this browser's token follows.
   */
  async setProfileId(id: unknown, hash?: unknown): Promise<void> {
    if (typeof id !== 'string' || id.length === 0 || id.length > 128) {
      throw new Error('urmNotification: a profile id is a string of 1 to 128 characters');
    }
    const proof = readProof(hash, 'the profile id hash');
    if (!this.identity) {
      this.pending = { id, proof };
      return;
    }
    const records = this.adopt(id, proof);
    if (records.length > 0) await this.post(records);
  }

  private ready(): { settings: Settings; identity: Identity } {
    if (!this.settings || !this.identity) throw new Error('urmNotification: call initNotification first');
    return { settings: this.settings, identity: this.identity };
  }

  private async setReceives(receives: boolean): Promise<void> {
    const { identity } = this.ready();
    await this.post([this.record(identity.profileId(), { urm_set: { [RECEIVES]: receives } })]);
  }

  /**
   * A profile record with its own insert id (a re-sent record is applied once), and the proof of its
   * profile when the SDK has one (a known profile needs it).
   */
  private record(profileId: string, fields: Fields, proof = this.identity?.proofOf(profileId)): Fields {
    const own = { ...fields, urm_insert_id: this.env.newId() };
    return profileRecord(this.ready().settings.appId, profileId, proof ? { ...own, [PROOF]: proof } : own, this.env.now());
  }

  /** This browser's token on the profile, in place of the one it had before. */
  private tokenRecords(profileId: string, token: string, fields: Fields): Fields[] {
    const previous = this.identity?.token();
    return [
      ...(previous && previous !== token ? [this.record(profileId, { urm_remove: { [TOKENS]: [previous] } })] : []),
      this.record(profileId, { ...fields, urm_unique_append: { [TOKENS]: [token] } }),
    ];
  }

  /** Records that make the service follow a change of profile. */
  private adopt(id: string, proof?: string): Fields[] {
    const { identity } = this.ready();
    const change = identity.adopt(id, proof);
    const token = identity.token();
    const records: Fields[] = [];
    // The token goes along with the merge: the visitor's own record may not be applied yet (another shard).
    if (change.mergeFrom) {
      records.push(this.record(id, { urm_merge: [change.mergeFrom], ...(token ? { urm_unique_append: { [TOKENS]: [token] } } : {}) }));
    }
    if (change.left && token) {
      records.push(this.record(change.left, { urm_remove: { [TOKENS]: [token] } }, change.leftProof));
      records.push(this.record(id, { urm_unique_append: { [TOKENS]: [token] } }));
    }
    return records;
  }

  /** Resolves once every record is written; rejects when the receipt still fails some after the re-sends. */
  private async post(records: Fields[]): Promise<void> {
    const unsent = await writeRecords(this.ready().settings, '/profiles', records, this.env.fetch, this.env.wait);
    if (unsent.length > 0) throw new Error(`urmNotification: POST /profiles did not store ${unsent.length} of ${records.length} records; try again`);
  }
}
