/** The configuration object of initNotification (docs/api.md, "The SDK"), checked with messages that say what is wrong. */
import type { ApiConfig } from '../shared/api';

export interface Settings extends ApiConfig {
  profileId?: string;
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
  return {
    appId: text(fields, 'appId', 64, true)!,
    apiKey: text(fields, 'apiKey', 256, true)!,
    profileId: text(fields, 'profileId', 128, false),
    apiUrl,
  };
}
