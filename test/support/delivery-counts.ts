/**
 * Counting what a fault did to the records: each profile receives records
 * that each add 1 to its `n` counter (profile records) or put one entry on
 * its timeline (events), so exact counters tell applied, duplicated and lost.
 */
export interface Expected {
  updates: number;
  events: number;
}

export interface DeliveryCounts {
  sent: number;
  applied: number;
  duplicated: number;
  lost: number;
}

/** Compares what each profile shows with what was sent to it. */
export function deliveryCounts(expected: Map<string, Expected>, seen: Map<string, Expected>): DeliveryCounts {
  const counts: DeliveryCounts = { sent: 0, applied: 0, duplicated: 0, lost: 0 };
  for (const [id, e] of expected) {
    const s = seen.get(id) ?? { updates: 0, events: 0 };
    counts.sent += e.updates + e.events;
    counts.applied += Math.min(s.updates, e.updates) + Math.min(s.events, e.events);
    counts.duplicated += Math.max(0, s.updates - e.updates) + Math.max(0, s.events - e.events);
    counts.lost += Math.max(0, e.updates - s.updates) + Math.max(0, e.events - s.events);
  }
  return counts;
}

export function formatCounts(what: string, counts: DeliveryCounts): string {
  return `${what}: sent ${counts.sent}, applied ${counts.applied}, duplicated ${counts.duplicated}, lost ${counts.lost}`;
}
