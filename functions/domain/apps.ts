/** Applications and their keys: the ports the back office and the auth check use. */
import type { ProgrammeSettings } from './affiliate-program';
import type { ApiKeyRecord } from './api-keys';
import type { MessagingSettings } from './send-gate';

export interface App extends ProgrammeSettings {
  app_id: string;
  name: string;
  created_at: string;
  /** Origin of the application's portal (enterprise redirect, affiliate login). */
  portal_origin?: string;
  /** Origins allowed to call with the application's browser key (CORS). */
  site_origins?: string[];
  /** Web push: the application server key browsers subscribe with (its private half is a secret). */
  vapid_public_key?: string;
  /** Web push: the VAPID contact (`mailto:` or `https:`) push services see. */
  vapid_subject?: string;
  /**
   * Identity verification of browser-key writes to known profiles
   * (./identity.ts): on unless turned off explicitly, so an application
   * that never said anything is protected.
   */
  identity_verification?: 'on' | 'off';
  /** The attributes the console's player search finds players by (./player-search.ts); absent: the default. */
  search_attributes?: string[];
  /** The searchable attributes before their last change, and when that was: a player applied before it is reindexed once. */
  search_attributes_previous?: string[];
  search_attributes_changed_at?: string;
  /** The send gate's settings: caps, quiet hours, time zone, topics, address attributes (./send-gate.ts); absent: the defaults. */
  messaging?: MessagingSettings;
}

export interface AppStore {
  create(app: App): Promise<void>;
  get(appId: string): Promise<App | undefined>;
  list(): Promise<App[]>;
  update(
    appId: string,
    changes: Partial<
      Pick<
        App,
        | 'name'
        | 'portal_origin'
        | 'site_origins'
        | 'vapid_public_key'
        | 'vapid_subject'
        | 'identity_verification'
        | 'search_attributes'
        | 'messaging'
        | keyof ProgrammeSettings
      >
    >,
  ): Promise<App>;
}

export interface KeyStore {
  findByHash(keyHash: string): Promise<ApiKeyRecord | undefined>;
  create(key: ApiKeyRecord): Promise<void>;
  listByApp(appId: string): Promise<ApiKeyRecord[]>;
  /** Marks the key revoked; false when the application has no such key. */
  revoke(appId: string, keyId: string, at: Date): Promise<boolean>;
}
