/** An application's money settings as the consumers read them: through a 30-second cache in front of the apps table. */
import type { AppStore } from '../domain/apps';
import { moneySettingsOf, type MoneySettings } from '../domain/money-settings';
import { LookupCache, lookupCacheDefaults } from '../http/lookup-cache';

/** Settings changes reach a consumer within the cache's 30 seconds, like key revocations reach the API. */
export function cachedMoneySettings(apps: Pick<AppStore, 'get'>): (appId: string) => Promise<MoneySettings | undefined> {
  const cache = new LookupCache<MoneySettings>(lookupCacheDefaults);
  return (appId) =>
    cache.get(appId, async (id) => {
      const app = await apps.get(id);
      return app && moneySettingsOf(app);
    });
}
