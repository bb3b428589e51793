/** The records the benchmarks send: shaped like an integrator's, the same in every figure. */

export const BATCH = 500;

/** A realistic event batch: 100 players, a handful of custom attributes each. */
export function eventBatch(appId: string, size = BATCH): Record<string, unknown>[] {
  return Array.from({ length: size }, (_, i) => ({
    app_id: appId,
    profile_id: `player-${i % 100}`,
    event: i % 3 === 0 ? 'deposit' : 'bet',
    urm_date_time: '2026-11-21T10:00:00Z',
    amount: (i % 50) + 0.5,
    currency: 'EUR',
    game: ['slots', 'blackjack', 'roulette'][i % 3],
    session: `s-${i % 7}`,
  }));
}

/** A realistic profile-update batch with several directives per record. */
export function profileBatch(appId: string, size = BATCH): Record<string, unknown>[] {
  return Array.from({ length: size }, (_, i) => ({
    app_id: appId,
    profile_id: `player-${i % 100}`,
    urm_date_time: '2026-11-21T10:00:00Z',
    country: 'MT',
    urm_add: { deposits: 25.5, bets: 1 },
    urm_unique_append: { games: ['slots'] },
    urm_set: { tier: 'gold', last_game: 'blackjack' },
  }));
}
