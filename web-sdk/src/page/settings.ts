/** The configuration object of initNotification (docs/api.md, "The SDK"), checked with messages that say what is wrong. */
import type { ApiConfig } from '../shared/api';

export interface Settings extends ApiConfig {
  profileId?: string;
  /** The integrator's server's proof of profileId: hex HMAC-SHA256(identity secret, profileId). */
  profileIdHash?: string;
}

const PROOF = /^[0-9a-fA-F]{64}$/;

/** A proof as the SDK takes it: 64 hex digits, or nothing. */
export function readProof(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || !PROOF.test(value))
    throw new Error(`urmNotification: ${name} must be the hex HMAC-SHA256 of the profile id (64 hex digits)`);
  return value;
}

function text(input: Record<string, unknown>, name: string, max: number, required: boolean): string | undefined {
  const value = input[name];
  if (value === undefined || value === null) {
    if (required) throw new Error(`urmNotification: settings.${name} is required`);
    return undefined;
  }
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new Error(`urmNotification: settings.${name} must be a string of 1 to ${max} characters`);
  }
  return value;
}

/**
 * `apiUrl` defaults to the origin the script was loaded from: one origin
 * serves both locally. In AWS the script comes from the CDN and the API has
 * its own address, so pages pass the stack's CrmUrl.
 */
export function readSettings(input: unknown, defaultApiUrl: string | undefined): Settings {
  if (input === null || typeof input !== 'object') throw new Error('urmNotification: initNotification needs a settings object');
  const fields = input as Record<string, unknown>;
  const apiUrl = text(fields, 'apiUrl', 2048, false) ?? defaultApiUrl;
  if (!apiUrl) throw new Error('urmNotification: settings.apiUrl is required (the script address is unknown)');
  if (!/^https?:\/\/[^/]/.test(apiUrl)) throw new Error('urmNotification: settings.apiUrl must be an http(s) URL');
  const profileId = text(fields, 'profileId', 128, false);
  const profileIdHash = readProof(fields.profileIdHash, 'settings.profileIdHash');
  if (profileIdHash && !profileId) throw new Error('urmNotification: settings.profileIdHash goes with settings.profileId');
  return {
    appId: text(fields, 'appId', 64, true)!,
    apiKey: text(fields, 'apiKey', 256, true)!,
    profileId,
    ...(profileIdHash ? { profileIdHash } : {}),
    apiUrl,
  };
}
