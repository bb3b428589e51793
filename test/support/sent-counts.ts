/** The send gate's caps counts (functions/domain/send-gate.ts, SentCounts) in memory, for unit tests. */
import type { ChannelCaps, GateChannel, LocalMoment, SentCounts } from '../../functions/domain/send-gate';

export class MemorySentCounts implements SentCounts {
  /** Sent per `app|profile|channel|day` and `…|week`. */
  readonly counts = new Map<string, number>();
  reads = 0;

  private keys(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    const base = `${appId}|${profileId}|${channel}`;
    return { day: `${base}|${moment.day}`, week: `${base}|${moment.week}` };
  }

  /** Arranges what was sent in the moment's day and week. */
  set(appId: string, profileId: string, channel: GateChannel, moment: Pick<LocalMoment, 'day' | 'week'>, sent: { day: number; week: number }): void {
    const keys = this.keys(appId, profileId, channel, { ...moment, minutes: 0 });
    this.counts.set(keys.day, sent.day);
    this.counts.set(keys.week, sent.week);
  }

  async read(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    this.reads++;
    const keys = this.keys(appId, profileId, channel, moment);
    return { day: this.counts.get(keys.day) ?? 0, week: this.counts.get(keys.week) ?? 0 };
  }

  async claim(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment, caps: ChannelCaps | undefined) {
    const keys = this.keys(appId, profileId, channel, moment);
    const day = this.counts.get(keys.day) ?? 0;
    const week = this.counts.get(keys.week) ?? 0;
    if ((caps?.daily !== undefined && day >= caps.daily) || (caps?.weekly !== undefined && week >= caps.weekly)) return false;
    this.counts.set(keys.day, day + 1);
    this.counts.set(keys.week, week + 1);
    return true;
  }

  async release(appId: string, profileId: string, channel: GateChannel, moment: LocalMoment) {
    const keys = this.keys(appId, profileId, channel, moment);
    this.counts.set(keys.day, Math.max(0, (this.counts.get(keys.day) ?? 0) - 1));
    this.counts.set(keys.week, Math.max(0, (this.counts.get(keys.week) ?? 0) - 1));
  }
}
