/** The send gate's reasons in the words an operator reads: Home's "Messages not sent" and a campaign's results. */
export const notSentWords: Record<string, string> = {
  rg_status: 'Responsible gambling',
  no_consent: 'No consent',
  unsubscribed: 'Unsubscribed from the topic',
  suppressed: 'Address suppressed',
  no_address: 'No address or device',
  daily_cap: 'Daily cap reached',
  weekly_cap: 'Weekly cap reached',
  quiet_hours: 'Deferred: quiet hours',
  no_player: 'No such player',
};
