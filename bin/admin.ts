/**
 * `npm run admin -- …`: the back office on the command line. Against the local
 * stack by default (it must be running: `npm start`), or against a deployed
 * stack with `--stack NAME` and the usual AWS credentials and region.
 */
import '../lib/local/quiet-sdk-warning';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createWriteStream, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { clickAddress, createLinkForAffiliate, listLinks } from '../functions/back-office/affiliate-links';
import { affiliateReport, affiliateTrace } from '../functions/back-office/affiliate-report';
import { affiliateDeals, assignPlan, setAffiliateStatus } from '../functions/back-office/affiliates';
import { affiliateApprovals, affiliateSignups, appSettingsView, checkOrigin, createApp, listApps, requireApp, updateApp } from '../functions/back-office/apps';
import { applicationFigures } from '../functions/back-office/figures';
import { campaignResults } from '../functions/back-office/campaign-results';
import { nowOf } from '../functions/back-office/ports';
import { figuresLimits } from '../functions/domain/figures';
import { addAdjustment, affiliateStatements, approveStatement, markStatementPaid, setMinPayout, statementsCsv } from '../functions/back-office/statements';
import { archivePlan, createPlan, editPlan, listPlans, planVersions } from '../functions/back-office/plans';
import { versionOf } from '../functions/domain/deals';
import type { PlanInput } from '../functions/domain/plans';
import { playerGate, reindexPlayers, searchPlayers } from '../functions/back-office/players';
import { changeAffiliatePostbacks, postbackDeliveries } from '../functions/back-office/postbacks';
import { createChannel, listChannels, setChannelDomain, setChannelEnabled } from '../functions/back-office/channels';
import { assignSender, listSenders, releaseSender, type SenderInput } from '../functions/back-office/senders';
import { rotateIdentitySecret, setIdentityVerification } from '../functions/back-office/identity';
import { rotateWebhookSecret } from '../functions/back-office/webhooks';
import { issueKey, listKeys, revokeKey } from '../functions/back-office/keys';
import { portalSignInLink } from '../functions/back-office/portal-link';
import { changeUserRole, listUsers, type UserView } from '../functions/back-office/users';
import { commandLineActor } from '../functions/domain/audit';
import { roles, type Role } from '../functions/domain/enterprise';
import { listAffiliates, listRejections } from '../functions/back-office/records';
import { getMoneySettings, setMoneySettings, type AppMoneySettings } from '../functions/back-office/money';
import { replayFailures } from '../functions/back-office/replay';
import { createJourney, editJourney, getJourney, listJourneys, moveJourney, playerJourneys, type JourneyDetail } from '../functions/back-office/journeys';
import { archiveSegment, createSegment, editSegment, getSegment, listSegments, type SegmentDetail } from '../functions/back-office/segments';
import { segmentCsv, segmentMembers } from '../functions/back-office/segment-members';
import {
  createTemplate,
  getTemplate,
  listTemplates,
  previewTemplateFor,
  setTemplateArchived,
  updateTemplate,
  type TemplateDetail,
} from '../functions/back-office/templates';
import { changeBroadcast, createBroadcast, getBroadcast, listBroadcasts, type BroadcastView } from '../functions/back-office/broadcasts';
import { generateVapidKeys } from '../functions/back-office/web-push';
import { statusOf } from '../functions/domain/affiliates';
import { scopes, type Scope } from '../functions/domain/api-keys';
import { reportCsv } from '../functions/back-office/affiliate-report-csv';
import { describePlan } from '../functions/domain/plans';
import { Conflict, DomainError, ValidationError } from '../functions/domain/errors';
import { parseMoneyEventPairs } from '../functions/domain/money-settings';
import { printResult, textTable as table } from '../lib/admin/format';
import {
  backOfficeOf,
  baseUrlOf,
  broadcastPortsOf,
  journeyPortsOf,
  replayPortsOf,
  resultsPortsOf,
  segmentPortsOf,
  TargetError,
  templatePortsOf,
} from '../lib/admin/targets';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

interface GlobalOptions {
  stack?: string;
  region?: string;
  dataDir: string;
  json?: boolean;
}

/** The use case's refusal, told in this command's options. */
/** A plan's terms from `plan create`/`plan edit` options. */
function planInputOf(opts: { name: string; cpa?: string; minDeposit?: string; revshare?: string; carryOver?: boolean }): PlanInput {
  if (opts.minDeposit !== undefined && opts.cpa === undefined) throw new InvalidArgumentError('--min-deposit goes with --cpa');
  if (opts.carryOver && opts.revshare === undefined) throw new InvalidArgumentError('--carry-over goes with --revshare');
  return {
    name: opts.name,
    ...(opts.cpa === undefined ? {} : { cpa: { amount: opts.cpa, min_deposit: opts.minDeposit } }),
    ...(opts.revshare === undefined ? {} : { revshare: { percent: opts.revshare, carry_over: Boolean(opts.carryOver) } }),
  };
}

/** A trace's deal of each day as runs of days under one deal: a year is a few lines. */
function dealRuns(days: { date: string; plan_id: string | null; plan_version: number | null }[]) {
  const runs: { from: string; to: string; plan_id: string; plan_version: string }[] = [];
  for (const day of days) {
    const last = runs[runs.length - 1];
    const [planId, version] = [day.plan_id ?? '(none)', String(day.plan_version ?? '')];
    if (last && last.plan_id === planId && last.plan_version === version) last.to = day.date;
    else runs.push({ from: day.date, to: day.date, plan_id: planId, plan_version: version });
  }
  return runs;
}

function withOptionHint(error: unknown): unknown {
  if (error instanceof Conflict) return new Conflict(error.message.replace('rotating replaces them', '--rotate replaces them'));
  if (error instanceof ValidationError && error.message === 'subject is missing') {
    return new ValidationError(['a subject is required: --subject mailto:push@example.com'], error.message);
  }
  return error;
}

const origin = (field: string) => (value: string) => {
  try {
    return checkOrigin(value, field);
  } catch (error) {
    throw new InvalidArgumentError((error as ValidationError).errors?.[0] ?? String(error));
  }
};
/** `--condition`: JSON text, or `@file.json`. */
function conditionArgument(value: string): unknown {
  const text = value.startsWith('@') ? readFileSync(resolve(value.slice(1)), 'utf8') : value;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new InvalidArgumentError(`not JSON: ${(error as Error).message}`);
  }
}

const positiveInteger = (value: string) => {
  if (!/^[1-9][0-9]*$/.test(value)) throw new InvalidArgumentError('a whole number from 1');
  return Number(value);
};

const collect =
  (parse: (v: string) => string) =>
  (value: string, previous: string[] = []) => [...previous, parse(value)];

export interface AdminOptions {
  /**
   * Lets `import()` load TypeScript: replay runs the consumers' handler modules. The compiled command line
   * (bin/admin.mjs) runs on plain Node and passes one; under tsx or jest there is nothing to do.
   */
  loadTypeScript?: () => Promise<void>;
}

export function adminProgram(options: AdminOptions = {}): Command {
  const program = new Command('admin')
    .description('urm back office: applications, keys, email senders and channels, affiliates and plans')
    .option('--stack <name>', 'a deployed stack (default: the local stack)')
    .option('--region <region>', 'AWS region of the deployed stack')
    .option('--data-dir <dir>', 'data directory of the local stack', process.env.URM_DATA_DIR || '.urm')
    .option('--json', 'print JSON')
    .showHelpAfterError();
  const target = () => program.opts<GlobalOptions>();
  // The data directory is relative to the repository, wherever the command runs from.
  const office = () => backOfficeOf({ ...target(), dataDir: resolve(root, target().dataDir) });
  const print = (value: unknown, lines: () => string[]) => printResult(target().json, value, lines);

  const app = program.command('app').alias('apps').description('applications');
  app
    .command('create')
    .description('create an application')
    .requiredOption('--name <name>', 'a name for people')
    .option('--portal-origin <origin>', 'origin of its portal, e.g. https://portal.example.com', origin('portal origin'))
    .option('--site-origin <origin>', 'an origin allowed to use its browser key (repeatable)', collect(origin('site origin')))
    .action(async (opts: { name: string; portalOrigin?: string; siteOrigin?: string[] }) => {
      const created = await createApp(await office(), { name: opts.name, portalOrigin: opts.portalOrigin, siteOrigins: opts.siteOrigin });
      print(created, () => [
        `Created application ${created.app_id} (${created.name})`,
        `identity secret (your server proves profile ids with it): ${created.identity_secret}`,
        'Store it now: it cannot be shown again (`app identity --rotate` makes a new one).',
      ]);
    });
  app
    .command('list')
    .description('list applications')
    .action(async () => {
      const apps = await listApps(await office());
      print(apps, () =>
        table(apps as unknown as Record<string, unknown>[], ['app_id', 'name', 'created_at', 'portal_origin', 'site_origins', 'identity_verification']),
      );
    });
  app
    .command('update')
    .description("change an application's name or origins")
    .argument('<app_id>')
    .option('--name <name>')
    .option('--portal-origin <origin>', 'origin of its portal', origin('portal origin'))
    .option('--site-origin <origin>', 'replaces the allowed site origins (repeatable)', collect(origin('site origin')))
    .addOption(
      new Option('--affiliate-approval <approval>', 'new affiliates are approved at once (approve) or wait as pending (pending, the default)').choices([
        ...affiliateApprovals,
      ]),
    )
    .addOption(
      new Option('--affiliate-signup <signup>', "the portal's join page takes applications, each pending (open), or is a 404 (closed, the default)").choices([
        ...affiliateSignups,
      ]),
    )
    .option('--default-plan <plan_id>', 'the plan new affiliates get (one of `plan list`)')
    .option(
      '--search-attributes <names>',
      'the attributes player search finds players by, comma-separated, at most 5 (default email,first_name,last_name,phone); applies to profiles applied from then on',
      (v: string) =>
        v
          .split(',')
          .map((name) => name.trim())
          .filter(Boolean),
    )
    .action(
      async (
        appId: string,
        opts: {
          name?: string;
          portalOrigin?: string;
          siteOrigin?: string[];
          affiliateApproval?: 'approve' | 'pending';
          affiliateSignup?: 'open' | 'closed';
          defaultPlan?: string;
          searchAttributes?: string[];
        },
      ) => {
        const updated = await updateApp(await office(), appId, commandLineActor, {
          name: opts.name,
          portalOrigin: opts.portalOrigin,
          siteOrigins: opts.siteOrigin,
          affiliateApproval: opts.affiliateApproval,
          affiliateSignup: opts.affiliateSignup,
          defaultPlanId: opts.defaultPlan,
          searchAttributes: opts.searchAttributes,
        });
        print(updated, () => [`Updated application ${appId}`]);
      },
    );
  app
    .command('identity')
    .description('identity verification of the browser key: a write to a known profile needs hex HMAC-SHA256(identity secret, profile_id)')
    .requiredOption('--app <app_id>')
    .addOption(new Option('--rotate', 'make a new identity secret, shown once; the old one stops working within 5 minutes').conflicts(['off', 'on']))
    .addOption(new Option('--off', 'turn verification off: anyone with the page may then change the push settings of any profile id it knows').conflicts('on'))
    .option('--on', 'turn verification back on')
    .action(async (opts: { app: string; rotate?: boolean; off?: boolean; on?: boolean }) => {
      if (!opts.rotate && !opts.off && !opts.on) throw new InvalidArgumentError('say --rotate, --off or --on');
      if (opts.rotate) {
        const secret = await rotateIdentitySecret(await office(), opts.app, commandLineActor);
        print({ app_id: opts.app, identity_secret: secret }, () => [
          `New identity secret of ${opts.app}: ${secret}`,
          'Store it now: it cannot be shown again. Proofs made with the old one stop working within 5 minutes.',
        ]);
        return;
      }
      const updated = await setIdentityVerification(await office(), opts.app, commandLineActor, Boolean(opts.on));
      print({ app_id: opts.app, identity_verification: updated.identity_verification }, () => [
        `Identity verification of ${opts.app} is ${updated.identity_verification} (applies within 5 minutes)`,
      ]);
    });
  app
    .command('webhook-secret')
    .description("make or replace the application's webhook signing secret (X-Urm-Signature on every webhook template's POST), shown once")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const secret = await rotateWebhookSecret(await office(), opts.app, commandLineActor);
      print({ app_id: opts.app, webhook_secret: secret }, () => [
        `New webhook secret of ${opts.app}: ${secret}`,
        'Store it now: it cannot be shown again. Webhooks are signed with it within a minute.',
      ]);
    });
  app
    .command('figures')
    .description("an application's figures: players now, and registrations, FTDs, deposits and NGR by day against as many days before")
    .argument('<app_id>')
    .option(
      '--days <n>',
      'days up to today (UTC)',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > figuresLimits.maxDays) throw new InvalidArgumentError(`a whole number from 1 to ${figuresLimits.maxDays}`);
        return n;
      },
      figuresLimits.defaultDays,
    )
    .action(async (appId: string, opts: { days: number }) => {
      const backOffice = await office();
      const figures = await applicationFigures({ ...backOffice, now: () => nowOf(backOffice) })(appId, { days: opts.days });
      const columns = ['registrations', 'ftds', 'deposit_count', 'deposits', 'withdrawals', 'ngr'];
      print(figures, () => [
        `Figures of ${appId}, ${figures.from} to ${figures.to} (UTC), money in ${figures.currency}`,
        `Players: ${figures.players}`,
        ...table(
          [
            ...figures.days.map(({ day, ...rest }) => ({ date: day, ...rest })),
            { date: 'total', ...figures.totals },
            { date: `the ${opts.days} days before`, ...figures.previous },
          ],
          ['date', ...columns],
        ),
      ]);
    });
  app
    .command('money')
    .description("an application's main currency and the event names that carry money (the affiliate funnel); without options, prints them")
    .requiredOption('--app <app_id>')
    .option('--currency <code>', 'the main currency every funnel figure is kept in (ISO 4217, e.g. EUR)')
    .option(
      '--map <Event=kind>',
      'an event name and what it means: deposit, withdrawal, bet, win or bonus (repeatable; replaces the mapping)',
      (v: string, previous: string[] = []) => [...previous, v],
    )
    .action(async (opts: { app: string; currency?: string; map?: string[] }) => {
      let settings: AppMoneySettings;
      if (opts.currency === undefined && opts.map === undefined) {
        settings = await getMoneySettings(await office(), opts.app);
      } else {
        const pairs = opts.map && parseMoneyEventPairs(opts.map);
        if (pairs && pairs.problems.length > 0) throw new ValidationError(pairs.problems, 'money settings are invalid');
        settings = await setMoneySettings(await office(), opts.app, commandLineActor, { currency: opts.currency, money_events: pairs?.money_events });
      }
      print(settings, () => [
        `Money settings of ${opts.app}: main currency ${settings.currency}`,
        ...(Object.keys(settings.money_events).length === 0
          ? ['no money events mapped (--map Deposit=deposit …)']
          : table(
              Object.entries(settings.money_events).map(([event, kind]) => ({ event, kind })),
              ['event', 'kind'],
            )),
      ]);
    });

  app
    .command('messaging')
    .description("an application's send gate settings (caps, quiet hours, time zone, topics, address attributes); without --set, prints them")
    .requiredOption('--app <app_id>')
    .option(
      '--set <json>',
      'replaces them all, as JSON, e.g. \'{"caps":{"email":{"daily":1,"weekly":3}},"quiet_hours":{"start":"22:00","end":"08:00"},"time_zone":"Europe/Malta","topics":[{"name":"promos","label":"Promotions"}]}\'',
      (v: string) => {
        try {
          return JSON.parse(v) as unknown;
        } catch {
          throw new InvalidArgumentError('must be JSON');
        }
      },
    )
    .action(async (opts: { app: string; set?: unknown }) => {
      const backOffice = await office();
      const found =
        opts.set === undefined ? await requireApp(backOffice, opts.app) : await updateApp(backOffice, opts.app, commandLineActor, { messaging: opts.set });
      const { messaging } = appSettingsView(found);
      const cap = (n: number | null) => (n === null ? 'no cap' : String(n));
      print(messaging, () => [
        `Messaging settings of ${opts.app}:`,
        ...table(
          (['email', 'push'] as const).map((channel) => ({
            channel,
            per_day: cap(messaging.caps[channel].daily),
            per_week: cap(messaging.caps[channel].weekly),
          })),
          ['channel', 'per_day', 'per_week'],
        ),
        `quiet hours: ${messaging.quiet_hours ? `${messaging.quiet_hours.start} to ${messaging.quiet_hours.end}` : 'none'} (players' local time; default zone ${messaging.time_zone})`,
        `topics: ${messaging.topics.length === 0 ? 'none' : messaging.topics.map((t) => `${t.name} (${t.label})`).join(', ')}`,
        `address attributes: email ${messaging.email_attribute}, phone ${messaging.phone_attribute}`,
      ]);
    });

  const portal = program.command('portal').description('the enterprise portal and back office: sign-in links, users and their roles');
  portal
    .command('link')
    .description("print a one-time sign-in link (5 minutes) for one of the application's enterprise users")
    .requiredOption('--app <app_id>')
    .requiredOption('--email <email>')
    .action(async (opts: { app: string; email: string }) => {
      const link = await portalSignInLink(await office())(opts.app, opts.email);
      print(link, () => [`Sign-in link for ${opts.email} (valid until ${link.expires_at}, usable once):`, link.redirect_url]);
    });
  portal
    .command('users')
    .description("list an application's enterprise users and their roles")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const users: UserView[] = [];
      let cursor: string | undefined;
      do {
        const page = await listUsers(await office())(opts.app, { cursor });
        users.push(...page.users);
        cursor = page.cursor;
      } while (cursor);
      print(users, () => table(users as unknown as Record<string, unknown>[], ['user_id', 'email', 'role', 'created_at']));
    });
  portal
    .command('role')
    .description("change a user's role (the application always keeps an admin)")
    .requiredOption('--app <app_id>')
    .requiredOption('--user <user_id>')
    .addOption(new Option('--role <role>').choices([...roles]).makeOptionMandatory())
    .action(async (opts: { app: string; user: string; role: Role }) => {
      const user = await changeUserRole(await office())(opts.app, commandLineActor, opts.user, opts.role);
      print(user, () => [`${user.email} is now ${user.role}`]);
    });

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .description('issue a key; it is shown once, only its hash is kept')
    .requiredOption('--app <app_id>')
    .addOption(new Option('--scope <scope>', 'what the key may do').choices([...scopes]).makeOptionMandatory())
    .action(async (opts: { app: string; scope: Scope }) => {
      const issued = await issueKey(await office(), opts.app, commandLineActor, opts.scope);
      print({ key: issued.key, ...issued.summary }, () => [
        `Created ${issued.summary.scope} key ${issued.summary.key_id} for ${opts.app}:`,
        issued.key,
        'Store it now: it cannot be shown again.',
      ]);
    });
  key
    .command('list')
    .description("list an application's keys (never the keys themselves)")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const keys = await listKeys(await office(), opts.app);
      print(keys, () => table(keys as unknown as Record<string, unknown>[], ['key_id', 'scope', 'created_at', 'revoked_at']));
    });
  key
    .command('revoke')
    .description('revoke a key (it stops working within 30 seconds)')
    .requiredOption('--app <app_id>')
    .argument('<key_id>')
    .action(async (keyId: string, opts: { app: string }) => {
      await revokeKey(await office(), opts.app, commandLineActor, keyId);
      print({ revoked: keyId }, () => [`Revoked key ${keyId}`]);
    });
  const sender = program
    .command('sender')
    .description("the addresses and domains an application may send email as: assigned here only, each to one application, audited in the application's log");
  /** `--email` or `--domain`, one of them. */
  const senderOptions = (command: Command) =>
    command
      .requiredOption('--app <app_id>')
      .addOption(new Option('--email <address>', 'one address').conflicts('domain'))
      .option('--domain <domain>', 'every address at a domain (not its subdomains)');
  const senderInput = (opts: { email?: string; domain?: string }): SenderInput => {
    if (opts.email !== undefined) return { email: opts.email };
    if (opts.domain !== undefined) return { domain: opts.domain };
    throw new InvalidArgumentError('say --email <address> or --domain <domain>');
  };
  senderOptions(
    sender
      .command('assign')
      .description(
        "let an application's channels send as an address or a domain; refused while another application holds it (or its domain, or an address at it)",
      ),
  ).action(async (opts: { app: string; email?: string; domain?: string }) => {
    const assigned = await assignSender(await office(), commandLineActor, opts.app, senderInput(opts));
    print(assigned, () => [`${assigned.sender} (${assigned.kind}) is assigned to ${assigned.app_id}`]);
  });
  sender
    .command('list')
    .description("list an application's senders, or with no --app every application's")
    .option('--app <app_id>')
    .action(async (opts: { app?: string }) => {
      const senders = await listSenders(await office(), opts.app);
      print(senders, () => table(senders as unknown as Record<string, unknown>[], ['sender', 'kind', 'app_id', 'assigned_at']));
    });
  senderOptions(
    sender.command('release').description('take a sender from an application: its channels with that sender stop sending (409) from the next request'),
  ).action(async (opts: { app: string; email?: string; domain?: string }) => {
    const input = senderInput(opts);
    await releaseSender(await office(), commandLineActor, opts.app, input);
    print({ released: input.email ?? input.domain, app_id: opts.app }, () => [`Released ${input.email ?? input.domain} from ${opts.app}`]);
  });
  const channel = program.command('channel').description('email channels: the senders send_email refers to by channel_id');
  channel
    .command('create')
    .description('create an enabled email channel')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>', 'a name for people')
    .requiredOption('--from-email <address>', "default sender address: one of the application's senders (`sender list`), at a verified SES identity in AWS")
    .requiredOption('--from-name <name>', 'default sender name')
    .option('--domain <domain>', "let send_email's from_email be any address at this domain: the from email's own")
    .action(async (opts: { app: string; name: string; fromEmail: string; fromName: string; domain?: string }) => {
      const created = await createChannel(await office(), commandLineActor, {
        appId: opts.app,
        name: opts.name,
        fromEmail: opts.fromEmail,
        fromName: opts.fromName,
        ...(opts.domain === undefined ? {} : { fromDomain: opts.domain }),
      });
      print(created, () => [`Created channel ${created.channel_id} (${created.name}) for ${opts.app}`]);
    });
  channel
    .command('list')
    .description("list an application's channels")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const channels = await listChannels(await office(), opts.app);
      print(channels, () =>
        table(channels as unknown as Record<string, unknown>[], ['channel_id', 'name', 'from_email', 'from_name', 'from_domain', 'enabled', 'created_at']),
      );
    });
  channel
    .command('update')
    .description("change which senders a channel allows: any address at its from email's domain, or that address only")
    .requiredOption('--app <app_id>')
    .option('--domain <domain>', "allow any address at this domain (the from email's own)")
    .option('--no-domain', 'allow the from email only')
    .argument('<channel_id>')
    .action(async (channelId: string, opts: { app: string; domain?: string | false }) => {
      if (opts.domain === undefined) throw new Error('channel update needs --domain <domain> or --no-domain');
      const updated = await setChannelDomain(await office(), opts.app, commandLineActor, channelId, opts.domain === false ? undefined : opts.domain);
      print(updated, () => [
        updated.from_domain === undefined
          ? `Channel ${channelId} sends from ${updated.from_email} only`
          : `Channel ${channelId} sends from any address at ${updated.from_domain}`,
      ]);
    });
  for (const [command, enabled] of [
    ['disable', false],
    ['enable', true],
  ] as const) {
    channel
      .command(command)
      .description(enabled ? 'let a channel send again' : 'stop a channel: send_email answers 404 for it')
      .requiredOption('--app <app_id>')
      .argument('<channel_id>')
      .action(async (channelId: string, opts: { app: string }) => {
        const updated = await setChannelEnabled(await office(), opts.app, commandLineActor, channelId, enabled);
        print(updated, () => [`${enabled ? 'Enabled' : 'Disabled'} channel ${channelId}`]);
      });
  }
  program
    .command('rejections')
    .description('records the consumers rejected when applying them (kept 14 days)')
    .requiredOption('--app <app_id>')
    .option(
      '--limit <n>',
      'how many, newest first',
      (v) => {
        const n = Number(v);
        if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('a whole number from 1 to 1000');
        return n;
      },
      20,
    )
    .action(async (opts: { app: string; limit: number }) => {
      const rejections = await listRejections(await office(), opts.app, opts.limit);
      print(rejections, () => table(rejections as unknown as Record<string, unknown>[], ['received_at', 'profile_id', 'urm_insert_id', 'kind', 'reason']));
    });
  const affiliate = program.command('affiliate').description('affiliates registered through register_affiliate: status, plan, reports');
  affiliate
    .command('list')
    .description("list an application's affiliates (never their passwords)")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const affiliates = (await listAffiliates(await office(), opts.app)).map((a) => ({ ...a, status: statusOf(a) }));
      print(affiliates, () =>
        table(affiliates as unknown as Record<string, unknown>[], [
          'affiliate_id',
          'username',
          'email',
          'first_name',
          'last_name',
          'status',
          'plan_id',
          'created_at',
        ]),
      );
    });
  const link = program.command('link').description("affiliates' tracking links: {base_url}/t/{link_id} redirects to the landing URL and counts the click");
  link
    .command('create')
    .description("create a tracking link for an affiliate; the landing URL must be on one of the application's site origins")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .requiredOption('--name <name>', 'a name for the affiliate, 1 to 100 characters')
    .requiredOption('--url <landing_url>', 'where the click lands, e.g. https://casino.example/welcome')
    .action(async (opts: { app: string; affiliate: string; name: string; url: string }) => {
      const created = await createLinkForAffiliate(await office())(opts.app, commandLineActor, opts.affiliate, { name: opts.name, landing_url: opts.url });
      const click_url = clickAddress(await baseUrlOf({ ...target(), dataDir: resolve(root, target().dataDir) }), created.link_id);
      print({ ...created, click_url }, () => [
        `Created link ${created.link_id} (${created.name}) for ${opts.affiliate}`,
        `click address: ${click_url}`,
        `lands on:      ${created.landing_url}`,
      ]);
    });
  link
    .command('list')
    .description("list an affiliate's tracking links, oldest first")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .action(async (opts: { app: string; affiliate: string }) => {
      const links = await listLinks(await office())(opts.app, opts.affiliate);
      print(links, () => table(links as unknown as Record<string, unknown>[], ['link_id', 'name', 'landing_url', 'created_at']));
    });
  for (const [command, status, description] of [
    ['approve', 'approved', 'approve an affiliate: it may sign in to the portal and earns commission'],
    ['suspend', 'suspended', 'suspend an affiliate: it may not sign in, and its links stop attributing'],
  ] as const) {
    affiliate
      .command(command)
      .description(description)
      .requiredOption('--app <app_id>')
      .requiredOption('--affiliate <affiliate_id>')
      .action(async (opts: { app: string; affiliate: string }) => {
        const updated = await setAffiliateStatus(await office(), opts.app, commandLineActor, opts.affiliate, status);
        print(updated, () => [`Affiliate ${opts.affiliate} is ${updated.status}`]);
      });
  }
  affiliate
    .command('plan')
    .description("put an affiliate on one of the application's plans (its current version) from a day: a deal; the days before keep theirs")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .requiredOption('--plan <plan_id>')
    .option('--from <YYYY-MM-DD>', 'the first day of the deal (UTC; default today); a past day only after the last approved month')
    .action(async (opts: { app: string; affiliate: string; plan: string; from?: string }) => {
      const updated = await assignPlan(await office(), opts.app, commandLineActor, opts.affiliate, opts.plan, opts.from);
      print(updated, () => [`Affiliate ${opts.affiliate} is on plan ${opts.plan} from ${opts.from ?? 'today'} (on ${updated.plan_id ?? 'no plan'} today)`]);
    });
  affiliate
    .command('deals')
    .description("an affiliate's deals, oldest first: each plan version and the day it starts")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .action(async (opts: { app: string; affiliate: string }) => {
      const deals = await affiliateDeals(await office(), opts.app, opts.affiliate);
      print(deals, () =>
        table(deals as unknown as Record<string, unknown>[], ['from', 'plan_id', 'plan_version', 'name', 'description', 'assigned_at', 'assigned_by']),
      );
    });
  affiliate
    .command('postback')
    .description("an affiliate's postback: a URL urm calls (GET, signed) on each registration and first deposit of its players")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .addOption(
      new Option(
        '--url <template>',
        'https URL template; placeholders {event} {sub_id} {link_id} {affiliate_id} {amount} {currency} {payout} {event_id} {date}',
      ).conflicts(['off', 'rotateSecret']),
    )
    .addOption(new Option('--off', 'stop sending postbacks').conflicts('rotateSecret'))
    .option('--rotate-secret', 'make a new signing secret, shown once')
    .action(async (opts: { app: string; affiliate: string; url?: string; off?: boolean; rotateSecret?: boolean }) => {
      if (opts.url === undefined && !opts.off && !opts.rotateSecret) throw new InvalidArgumentError('say --url, --off or --rotate-secret');
      const settings = await changeAffiliatePostbacks(
        await office(),
        opts.app,
        commandLineActor,
        opts.affiliate,
        opts.off ? { action: 'off' } : opts.rotateSecret ? { action: 'rotate_secret' } : { action: 'set', postback_url: opts.url! },
      );
      print(settings, () => [
        settings.postback_url === null ? `Postbacks of ${opts.affiliate} are off` : `Postback URL of ${opts.affiliate}: ${settings.postback_url}`,
        ...(settings.signing_secret
          ? [
              `Signing secret: ${settings.signing_secret}`,
              'Give it to the affiliate now: it cannot be shown again. Postbacks are signed with it from the next minute.',
            ]
          : []),
      ]);
    });
  affiliate
    .command('postbacks')
    .description("an affiliate's postback delivery log, newest attempt first (90 days)")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .option('--limit <n>', 'at most this many attempts', (value) => Number(value), 50)
    .action(async (opts: { app: string; affiliate: string; limit: number }) => {
      const entries = await postbackDeliveries(await office(), opts.app, opts.affiliate, opts.limit);
      print(entries, () =>
        table(entries as unknown as Record<string, unknown>[], ['at', 'event', 'event_id', 'outcome', 'attempts', 'status_code', 'error', 'url']),
      );
    });
  const range = (command: Command) =>
    command
      .requiredOption('--app <app_id>')
      .requiredOption('--affiliate <affiliate_id>')
      .requiredOption('--from <YYYY-MM-DD>', 'first day (UTC)')
      .requiredOption('--to <YYYY-MM-DD>', 'last day (UTC), at most 366 days in all');
  range(affiliate.command('report').description("an affiliate's figures and commission by day, by link and in total"))
    .option('--csv', 'print the rows by day, link and sub-id, and the totals, as CSV')
    .action(async (opts: { app: string; affiliate: string; from: string; to: string; csv?: boolean }) => {
      const report = await affiliateReport(await office())(opts.app, opts.affiliate, opts.from, opts.to, { subIds: true });
      if (opts.csv) {
        process.stdout.write(reportCsv(report));
        return;
      }
      const columns = ['clicks', 'registrations', 'ftds', 'qualified_ftds', 'deposits', 'ngr', 'cpa', 'revshare', 'commission'];
      print(report, () => [
        `Affiliate ${report.affiliate_id}, ${report.from} to ${report.to}, ${report.currency}, plan ${report.plan_id ?? '(none)'}`,
        ...table([...report.days, { date: 'total', ...report.totals }] as unknown as Record<string, unknown>[], ['date', ...columns]),
        '',
        'By link:',
        ...table(report.links as unknown as Record<string, unknown>[], ['link_id', 'name', ...columns]),
        '',
        'RevShare by month:',
        ...table((report.months ?? []) as unknown as Record<string, unknown>[], ['month', 'from', 'to', 'revshare', 'carried_in', 'payable', 'carried_out']),
        '',
        `Commission: ${report.totals.commission} ${report.currency} (CPA ${report.totals.cpa} + RevShare payable)`,
      ]);
    });
  range(
    affiliate.command('trace').description('what is behind the commission: registrations, first deposits, and the money events of attributed players'),
  ).action(async (opts: { app: string; affiliate: string; from: string; to: string }) => {
    const trace = await affiliateTrace(await office())(opts.app, opts.affiliate, opts.from, opts.to);
    print(trace, () => [
      `Affiliate ${trace.affiliate_id}, ${trace.from} to ${trace.to}, ${trace.currency}`,
      'Registrations:',
      ...table(trace.registrations as unknown as Record<string, unknown>[], ['day', 'profile_id', 'link_id', 'sub_id']),
      '',
      'Deals by day:',
      ...table(dealRuns(trace.days) as unknown as Record<string, unknown>[], ['from', 'to', 'plan_id', 'plan_version']),
      '',
      'First deposits:',
      ...table(trace.ftds as unknown as Record<string, unknown>[], [
        'day',
        'profile_id',
        'insert_id',
        'amount',
        'qualified',
        'plan_id',
        'plan_version',
        'link_id',
      ]),
      '',
      'Money events of attributed players:',
      ...table(
        trace.players.flatMap((player) => player.events.map((event) => ({ profile_id: player.profile_id, ...event }))) as unknown as Record<string, unknown>[],
        ['urm_date_time', 'profile_id', 'event', 'kind', 'amount', 'currency', 'exchange_rate', 'urm_insert_id'],
      ),
    ]);
  });
  // Monthly statements (docs/api.md, "Statements, adjustments and payments"): the console's use cases.
  const statement = program.command('statement').description("affiliates' monthly statements: approve, adjust, pay, export");
  const statementPorts = async () => {
    const o = await office();
    return { ...o, report: affiliateReport(o) };
  };
  const ofMonth = (command: Command) =>
    command.requiredOption('--app <app_id>').requiredOption('--affiliate <affiliate_id>').requiredOption('--month <YYYY-MM>');
  statement
    .command('list')
    .description("an affiliate's statements, newest first, and the balance")
    .requiredOption('--app <app_id>')
    .requiredOption('--affiliate <affiliate_id>')
    .action(async (opts: { app: string; affiliate: string }) => {
      const list = await affiliateStatements(await statementPorts())(opts.app, opts.affiliate);
      print(list, () => [
        `Affiliate ${list.affiliate_id}, ${list.currency}, balance ${list.balance}, minimum payout ${list.min_payout}`,
        ...table(list.statements as unknown as Record<string, unknown>[], [
          'month',
          'status',
          'cpa',
          'revshare',
          'brought_forward',
          'total',
          'carried_forward',
          'due',
        ]),
      ]);
    });
  ofMonth(statement.command('approve').description('approve (freeze) a month that has ended, the one after the last approved')).action(
    async (opts: { app: string; affiliate: string; month: string }) => {
      const frozen = await approveStatement(await statementPorts())(opts.app, commandLineActor, opts.affiliate, opts.month);
      print(frozen, () => [`Approved ${frozen.month}: total ${frozen.total}, due ${frozen.due}, carried forward ${frozen.carried_forward} ${frozen.currency}`]);
    },
  );
  ofMonth(statement.command('adjust').description('add a manual adjustment to an open month'))
    .requiredOption('--amount <decimal>', 'e.g. -25.50')
    .requiredOption('--reason <text>')
    .action(async (opts: { app: string; affiliate: string; month: string; amount: string; reason: string }) => {
      const added = await addAdjustment(await statementPorts())(opts.app, commandLineActor, opts.affiliate, opts.month, opts);
      print(added, () => [`Adjustment ${added.adjustment_id}: ${added.amount} (${added.reason})`]);
    });
  ofMonth(statement.command('pay').description('record the payment of an approved statement'))
    .requiredOption('--reference <text>')
    .requiredOption('--paid-at <YYYY-MM-DD>')
    .action(async (opts: { app: string; affiliate: string; month: string; reference: string; paidAt: string }) => {
      const paid = await markStatementPaid(await statementPorts())(opts.app, commandLineActor, opts.affiliate, opts.month, {
        reference: opts.reference,
        paid_at: opts.paidAt,
      });
      print(paid, () => [`Paid ${paid.month}: ${paid.due} ${paid.currency}, reference ${paid.payment?.reference}`]);
    });
  statement
    .command('csv')
    .description("every affiliate's approved statement of a month, as CSV for accounting")
    .requiredOption('--app <app_id>')
    .requiredOption('--month <YYYY-MM>')
    .action(async (opts: { app: string; month: string }) => {
      process.stdout.write((await statementsCsv(await statementPorts())(opts.app, opts.month)).body);
    });
  statement
    .command('min-payout')
    .description("set the application's minimum payout (a smaller total is carried forward)")
    .requiredOption('--app <app_id>')
    .requiredOption('--amount <decimal>', 'e.g. 100')
    .action(async (opts: { app: string; amount: string }) => {
      const min = await setMinPayout(await office(), opts.app, commandLineActor, opts.amount);
      print({ min_payout: min }, () => [`Minimum payout of ${opts.app}: ${min}`]);
    });
  const plan = program.command('plan').description('commission plans: CPA, RevShare or both (hybrid)');
  plan
    .command('create')
    .description('create a plan: --cpa and/or --revshare')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>', 'a name for people')
    .option('--cpa <amount>', 'paid per qualified first deposit, e.g. 50')
    .option('--min-deposit <amount>', 'the smallest first deposit that qualifies for CPA (default 0)')
    .option('--revshare <percent>', 'percent of NGR (bets − wins − bonuses), 0 to 100')
    .option('--carry-over', "carry a month's negative RevShare into the next month")
    .action(async (opts: { app: string; name: string; cpa?: string; minDeposit?: string; revshare?: string; carryOver?: boolean }) => {
      const created = await createPlan(await office(), opts.app, commandLineActor, planInputOf(opts));
      print(created, () => [`Created plan ${created.plan_id} (${created.name}): ${describePlan(created)}`]);
    });
  plan
    .command('list')
    .description("list an application's plans")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const plans = (await listPlans(await office(), opts.app)).map((p) => ({ ...p, terms: describePlan(p) }));
      print(plans, () => table(plans as unknown as Record<string, unknown>[], ['plan_id', 'name', 'version', 'terms', 'archived_at', 'created_at']));
    });
  plan
    .command('edit')
    .description('a new version of a plan with these terms (given whole, as to create); affiliates keep the version they were assigned')
    .requiredOption('--app <app_id>')
    .requiredOption('--plan <plan_id>')
    .requiredOption('--name <name>', 'a name for people')
    .option('--cpa <amount>', 'paid per qualified first deposit, e.g. 50')
    .option('--min-deposit <amount>', 'the smallest first deposit that qualifies for CPA (default 0)')
    .option('--revshare <percent>', 'percent of NGR (bets − wins − bonuses), 0 to 100')
    .option('--carry-over', "carry a month's negative RevShare into the next month")
    .action(async (opts: { app: string; plan: string; name: string; cpa?: string; minDeposit?: string; revshare?: string; carryOver?: boolean }) => {
      const edited = await editPlan(await office(), opts.app, commandLineActor, opts.plan, planInputOf(opts));
      print(edited, () => [`Plan ${edited.plan_id} (${edited.name}) is now version ${edited.version}: ${describePlan(edited)}`]);
    });
  plan
    .command('archive')
    .description('archive a plan: not assigned any more; affiliates on it keep earning under it')
    .requiredOption('--app <app_id>')
    .requiredOption('--plan <plan_id>')
    .action(async (opts: { app: string; plan: string }) => {
      const archived = await archivePlan(await office(), opts.app, commandLineActor, opts.plan);
      print(archived, () => [`Plan ${archived.plan_id} (${archived.name}) is archived since ${archived.archived_at}`]);
    });
  plan
    .command('versions')
    .description('every version of a plan, oldest first')
    .requiredOption('--app <app_id>')
    .requiredOption('--plan <plan_id>')
    .action(async (opts: { app: string; plan: string }) => {
      const versions = (await planVersions(await office(), opts.app, opts.plan)).map((p) => ({ ...p, version: versionOf(p), terms: describePlan(p) }));
      print(versions, () => table(versions as unknown as Record<string, unknown>[], ['version', 'name', 'terms', 'version_created_at']));
    });
  program
    .command('replay')
    .description(
      'apply again the stream batches the consumers gave up on (the on-failure queue in AWS, .urm/on-failure.jsonl locally); ' +
        'fix the cause first. Each replayed entry is removed; one that fails again stays listed',
    )
    .action(async () => {
      await options.loadTypeScript?.();
      const outcomes = await replayFailures(await replayPortsOf({ ...target(), dataDir: resolve(root, target().dataDir) }, root));
      const failed = outcomes.filter((outcome) => outcome.status === 'failed');
      print(outcomes, () =>
        outcomes.length === 0
          ? ['Nothing to replay.']
          : [
              ...table(outcomes as unknown as Record<string, unknown>[], [
                'status',
                'consumer',
                'shardId',
                'startSequenceNumber',
                'endSequenceNumber',
                'records',
                'error',
              ]),
              `Replayed ${outcomes.length - failed.length} of ${outcomes.length}.`,
            ],
      );
      if (failed.length > 0) process.exitCode = 1;
    });
  const players = program.command('players').description("an application's players");
  players
    .command('search')
    .description('find players by profile id, email, name or phone (the searchable attributes): any case, whole or its beginning; at most 50, exact first')
    .argument('<app_id>')
    .argument('<query>')
    .action(async (appId: string, query: string) => {
      const back = await office();
      const found = await searchPlayers({ ...back.players, apps: back.apps })({ appId }, query);
      print(found, () =>
        found.length === 0
          ? [`No player of ${appId} matches "${query}"`]
          : table(
              found.map((p) => ({
                profile_id: p.profile_id,
                name: p.name,
                email: p.email,
                matched: p.matched ? `${p.matched.by}${p.matched.exact ? '' : ' (beginning)'}` : '',
                deposits: `${p.money.deposits} ${p.money.currency}`,
                updated_at: p.updated_at,
              })),
              ['profile_id', 'name', 'email', 'matched', 'deposits', 'updated_at'],
            ),
      );
    });

  players
    .command('gate')
    .description("what the send gate would answer now to a marketing message, per channel: the player page's gate line")
    .argument('<app_id>')
    .argument('<profile_id>')
    .action(async (appId: string, profileId: string) => {
      const back = await office();
      const lines = await playerGate({ ...back.players, apps: back.apps })(appId, profileId);
      const words = { send: 'would be sent', defer: 'would be deferred', refuse: 'would be refused' } as const;
      print(lines, () =>
        Object.entries(lines).map(
          ([channel, line]) =>
            `${channel}: ${words[line.verdict]}${line.detail ? `: ${line.detail}` : ''}${line.until ? ` (until ${line.until})` : ''}${line.reason ? ` [${line.reason}]` : ''}`,
        ),
      );
    });

  players
    .command('reindex')
    .description('give players the search terms of the current searchable attributes (those not applied since it changed); resumable')
    .argument('<app_id>')
    .option('--cursor <cursor>', 'go on where an earlier run stopped')
    .option(
      '--max <players>',
      'stop after this many players (default 10000)',
      (v: string) => {
        const n = Number(v);
        if (!Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('a positive whole number');
        return n;
      },
      10_000,
    )
    .action(async (appId: string, opts: { cursor?: string; max: number }) => {
      const back = await office();
      const reindex = reindexPlayers({ ...back.players, apps: back.apps });
      let cursor = opts.cursor;
      let read = 0;
      let written = 0;
      do {
        const page = await reindex(appId, { cursor, limit: 100 });
        read += page.read;
        written += page.written;
        cursor = page.next_cursor ?? undefined;
      } while (cursor !== undefined && read < opts.max);
      print({ app_id: appId, read, written, next_cursor: cursor ?? null }, () => [
        `Reindexed ${written} players of ${appId} (${read} read)`,
        ...(cursor ? [`More to go: run again with --cursor ${cursor}`] : []),
      ]);
    });
  program
    .command('results')
    .description('a journey\'s or a broadcast\'s results: per step, in total, and money against its holdout (docs/api.md, "Campaign results")')
    .argument('<app_id>')
    .argument('<kind>', 'journey or broadcast')
    .argument('<id>', 'the journey or broadcast id')
    .action(async (appId: string, kind: string, id: string) => {
      const results = await campaignResults(await resultsPortsOf({ ...target(), dataDir: resolve(root, target().dataDir) }))(appId, kind, id);
      const { money } = results;
      const columns = [
        'entered',
        'sent',
        'sent_unique',
        'suppressed',
        'failed',
        'delivered',
        'bounced',
        'complained',
        'opened',
        'opened_unique',
        'clicked',
        'clicked_unique',
        'unsubscribed',
        'holdout',
      ];
      const group = (name: string, g: typeof money.recipients) => ({
        group: name,
        players: g.players,
        depositors: g.depositors,
        deposits: g.deposits,
        ngr: g.ngr,
        ...Object.fromEntries(Object.entries(g.per_1000).map(([k, v]) => [`${k}_per_1000`, v])),
      });
      print(results, () => [
        `Results of ${kind} ${id} in ${appId}`,
        ...table([...results.steps, { ...results.totals, step: 'total' }] as unknown as Record<string, unknown>[], ['step', ...columns]),
        '',
        `Money within ${money.window_days} days of the send, in ${money.currency}`,
        ...table(
          [
            group('recipients', money.recipients),
            group('holdout', money.holdout),
            ...(money.uplift ? [{ group: 'uplift', ...Object.fromEntries(Object.entries(money.uplift).map(([k, v]) => [`${k}_per_1000`, v])) }] : []),
          ],
          ['group', 'players', 'depositors', 'deposits', 'ngr', 'depositors_per_1000', 'deposits_per_1000', 'ngr_per_1000'],
        ),
      ]);
    });

  const segments = program.command('segments').description('segments: named conditions over players, kept in real time (docs/api.md, "Segments")');
  const segmentPorts = () => segmentPortsOf({ ...target(), dataDir: resolve(root, target().dataDir) });
  const segmentLines = (segment: SegmentDetail) => [
    `${segment.segment_id} (${segment.name}): ${segment.size} members, ${segment.status}, version ${segment.version}`,
    ...(segment.backfill && segment.status === 'backfilling'
      ? [
          `backfill: ${segment.backfill.done}${segment.backfill.total === null ? '' : ` of ${segment.backfill.total}`} players since ${segment.backfill.started_at}`,
        ]
      : []),
    ...(segment.description ? [segment.description] : []),
    `condition: ${JSON.stringify(segment.condition)}`,
  ];
  segments
    .command('list')
    .description("an application's segments with their sizes")
    .requiredOption('--app <app_id>')
    .option('--archived', 'archived segments too')
    .action(async (opts: { app: string; archived?: boolean }) => {
      const found = await listSegments(await segmentPorts())(opts.app, { archived: opts.archived });
      print(found, () => table(found as unknown as Record<string, unknown>[], ['segment_id', 'name', 'size', 'status', 'version', 'updated_at']));
    });
  segments
    .command('show')
    .description('a segment: its condition, size and backfill')
    .requiredOption('--app <app_id>')
    .requiredOption('--segment <segment_id>')
    .action(async (opts: { app: string; segment: string }) => {
      const found = await getSegment(await segmentPorts())(opts.app, opts.segment);
      print(found, () => segmentLines(found));
    });
  segments
    .command('create')
    .description('define a segment: it is backfilled over the existing players, then kept in real time')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>', 'a name for people, 1 to 100 characters')
    .requiredOption('--condition <json>', 'the condition as JSON text, or @file.json', conditionArgument)
    .option('--id <segment_id>', 'lower-case letters, digits, _ and - (default: made from the name)')
    .option('--description <text>')
    .action(async (opts: { app: string; name: string; condition: unknown; id?: string; description?: string }) => {
      const created = await createSegment(await segmentPorts())(opts.app, commandLineActor, {
        name: opts.name,
        condition: opts.condition,
        ...(opts.id ? { segment_id: opts.id } : {}),
        ...(opts.description ? { description: opts.description } : {}),
      });
      print(created, () => [`Created segment ${created.segment_id}: backfilling.`, ...segmentLines(created)]);
    });
  segments
    .command('edit')
    .description('change a segment: a new condition is a new version, backfilled again')
    .requiredOption('--app <app_id>')
    .requiredOption('--segment <segment_id>')
    .option('--name <name>')
    .option('--description <text>')
    .option('--condition <json>', 'the condition as JSON text, or @file.json', conditionArgument)
    .action(async (opts: { app: string; segment: string; name?: string; description?: string; condition?: unknown }) => {
      const edited = await editSegment(await segmentPorts())(opts.app, commandLineActor, opts.segment, {
        name: opts.name,
        description: opts.description,
        condition: opts.condition,
      });
      print(edited, () => [`Changed segment ${edited.segment_id}.`, ...segmentLines(edited)]);
    });
  segments
    .command('archive')
    .description('stop keeping a segment (refused while another segment uses it)')
    .requiredOption('--app <app_id>')
    .requiredOption('--segment <segment_id>')
    .action(async (opts: { app: string; segment: string }) => {
      const archived = await archiveSegment(await segmentPorts())(opts.app, commandLineActor, opts.segment);
      print(archived, () => [`Archived segment ${archived.segment_id}.`]);
    });
  segments
    .command('members')
    .description("a page of a segment's members with their name, email and money")
    .requiredOption('--app <app_id>')
    .requiredOption('--segment <segment_id>')
    .option('--limit <n>', 'members per page, 1 to 100 (default 100)', positiveInteger)
    .option('--cursor <cursor>', 'the next_cursor of the previous page')
    .action(async (opts: { app: string; segment: string; limit?: number; cursor?: string }) => {
      const page = await segmentMembers(await segmentPorts())(opts.app, opts.segment, { limit: opts.limit, cursor: opts.cursor });
      print(page, () => [
        ...table(page.members as unknown as Record<string, unknown>[], ['profile_id', 'name', 'email', 'deposit_count', 'deposits', 'ngr', 'entered_at']),
        ...(page.next_cursor ? [`next page: --cursor ${page.next_cursor}`] : []),
      ]);
    });
  segments
    .command('export')
    .description('every member as CSV (all files of the console, one after another, the header once)')
    .requiredOption('--app <app_id>')
    .requiredOption('--segment <segment_id>')
    .option('--out <file>', 'write to this file (default: standard output)')
    .action(async (opts: { app: string; segment: string; out?: string }) => {
      const csv = segmentCsv(await segmentPorts());
      const out = opts.out ? createWriteStream(opts.out) : process.stdout;
      let cursor: string | undefined;
      let rows = 0;
      do {
        const file = await csv(opts.app, opts.segment, { cursor });
        // Every file starts with the header: the first one's is kept.
        out.write(cursor === undefined ? file.csv : file.csv.slice(file.csv.indexOf('\r\n') + 2));
        rows += file.rows;
        cursor = file.next_cursor ?? undefined;
      } while (cursor !== undefined);
      if (opts.out) {
        await new Promise((done) => (out as ReturnType<typeof createWriteStream>).end(done));
        print({ segment_id: opts.segment, rows, file: opts.out }, () => [`Wrote ${rows} members to ${opts.out}.`]);
      }
    });
  const templates = program.command('templates').description('message templates: email, web push and webhook, in Liquid (docs/api.md, "Templates")');
  const templatePorts = () => templatePortsOf({ ...target(), dataDir: resolve(root, target().dataDir) });
  const templateLines = (found: TemplateDetail) => [
    `${found.id} (${found.name}): ${found.kind}, languages ${found.languages.join(', ')} (default ${found.default_language}), version ${found.version}${found.archived ? ', archived' : ''}`,
    `updated ${found.updated_at}${found.updated_by ? ` by ${found.updated_by}` : ''}`,
    JSON.stringify(found.template, null, 2),
  ];
  templates
    .command('list')
    .description("an application's templates, newest change first")
    .argument('<app_id>')
    .option('--archived', 'archived templates too')
    .action(async (appId: string, opts: { archived?: boolean }) => {
      const found = await listTemplates(await templatePorts())(appId, { archived: opts.archived });
      print(found, () => table(found as unknown as Record<string, unknown>[], ['id', 'name', 'kind', 'languages', 'version', 'archived', 'updated_at']));
    });
  templates
    .command('show')
    .description('a template as stored, with its version')
    .argument('<app_id>')
    .argument('<template_id>')
    .action(async (appId: string, templateId: string) => {
      const found = await getTemplate(await templatePorts())(appId, templateId);
      print(found, () => templateLines(found));
    });
  templates
    .command('put')
    .description("save a template from a JSON file: created when its id is new, else replaces the stored one's content (its id and kind stay)")
    .argument('<app_id>')
    .requiredOption('--file <file>', 'the template as JSON (docs/api.md, "Templates")')
    .action(async (appId: string, opts: { file: string }) => {
      const input = conditionArgument(`@${opts.file}`) as { id?: unknown };
      const ports = await templatePorts();
      const current = typeof input?.id === 'string' ? await ports.templates.get(appId, input.id) : undefined;
      const saved = current
        ? await updateTemplate(ports)(appId, commandLineActor, current.template.id, { version: current.version, template: input })
        : await createTemplate(ports)(appId, commandLineActor, input);
      print(saved, () => [`${current ? 'Changed' : 'Created'} template ${saved.id}: version ${saved.version}.`]);
    });
  for (const [name, archived] of [
    ['archive', true],
    ['restore', false],
  ] as const) {
    templates
      .command(name)
      .description(archived ? 'archive a template: campaigns can no longer pick it' : 'restore an archived template')
      .argument('<app_id>')
      .argument('<template_id>')
      .action(async (appId: string, templateId: string) => {
        const saved = await setTemplateArchived(await templatePorts())(appId, commandLineActor, templateId, archived);
        print(saved, () => [`${archived ? 'Archived' : 'Restored'} template ${saved.id}.`]);
      });
  }
  templates
    .command('preview')
    .description('a saved template rendered for a player, with the language variant it picks and why; nothing is sent')
    .argument('<app_id>')
    .argument('<template_id>')
    .option('--profile <profile_id>', 'the player whose attributes it renders with (default: none)')
    .option('--data <json>', "the event's properties it renders with: JSON text, or @file.json", conditionArgument)
    .action(async (appId: string, templateId: string, opts: { profile?: string; data?: unknown }) => {
      if (opts.data !== undefined && (typeof opts.data !== 'object' || opts.data === null || Array.isArray(opts.data)))
        throw new ValidationError(['--data must be a JSON object'], 'request is invalid');
      const shown = await previewTemplateFor(await templatePorts())(appId, {
        template_id: templateId,
        ...(opts.profile !== undefined ? { profile_id: opts.profile } : {}),
        ...(opts.data !== undefined ? { data: opts.data as Record<string, unknown> } : {}),
      });
      print(shown, () => [
        `language: ${shown.language} (${shown.why})`,
        ...(shown.kind === 'email' ? [`subject: ${shown.subject}`, '--- html', shown.html, '--- text', shown.text] : []),
        ...(shown.kind === 'push' ? [`title: ${shown.title}`, `body: ${shown.body}`, ...(shown.url ? [`url: ${shown.url}`] : [])] : []),
        ...(shown.kind === 'webhook' ? [`url: ${shown.url}`, '--- body', shown.body] : []),
      ]);
    });
  const journeys = program.command('journeys').description('journeys: lifecycle marketing that reacts to events (docs/api.md, "Journeys")');
  const journeyPorts = () => journeyPortsOf({ ...target(), dataDir: resolve(root, target().dataDir) });
  const journeyLines = (journey: JourneyDetail) => [
    `${journey.journey_id} (${journey.name}): ${journey.status}, version ${journey.version}`,
    ...journey.occupancy.map((row) => `  v${row.version} ${row.step_id}: ${row.players} players now`),
    `definition: ${JSON.stringify(journey.definition)}`,
  ];
  journeys
    .command('list')
    .description("an application's journeys")
    .requiredOption('--app <app_id>')
    .option('--archived', 'archived journeys too')
    .action(async (opts: { app: string; archived?: boolean }) => {
      const found = await listJourneys(await journeyPorts())(opts.app, { archived: opts.archived });
      print(found, () => table(found as unknown as Record<string, unknown>[], ['journey_id', 'name', 'status', 'version', 'updated_at']));
    });
  journeys
    .command('show')
    .description('a journey: its definition, versions and players at each step now')
    .requiredOption('--app <app_id>')
    .requiredOption('--journey <journey_id>')
    .action(async (opts: { app: string; journey: string }) => {
      const found = await getJourney(await journeyPorts())(opts.app, opts.journey);
      print(found, () => journeyLines(found));
    });
  journeys
    .command('create')
    .description('a journey as a draft: publish it with `journeys publish`')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>', 'a name for people, 1 to 100 characters')
    .requiredOption('--file <definition.json>', 'the definition (entry, steps, goal…) as a JSON file')
    .option('--id <journey_id>', 'lower-case letters, digits, _ and - (default: made from the name)')
    .action(async (opts: { app: string; name: string; file: string; id?: string }) => {
      const created = await createJourney(await journeyPorts())(opts.app, commandLineActor, {
        name: opts.name,
        definition: conditionArgument(`@${opts.file}`),
        ...(opts.id ? { journey_id: opts.id } : {}),
      });
      print(created, () => [`Created journey ${created.journey_id}: a draft.`, ...journeyLines(created)]);
    });
  journeys
    .command('edit')
    .description('rename a journey, or change its definition: a new version; players in it keep theirs')
    .requiredOption('--app <app_id>')
    .requiredOption('--journey <journey_id>')
    .option('--name <name>')
    .option('--file <definition.json>', 'the new definition as a JSON file')
    .action(async (opts: { app: string; journey: string; name?: string; file?: string }) => {
      const edited = await editJourney(await journeyPorts())(opts.app, commandLineActor, opts.journey, {
        name: opts.name,
        ...(opts.file ? { definition: conditionArgument(`@${opts.file}`) } : {}),
      });
      print(edited, () => [`Changed journey ${edited.journey_id}.`, ...journeyLines(edited)]);
    });
  for (const [move, what] of [
    ['publish', 'make a draft live: players enter from now on'],
    ['pause', 'stop entries and hold the players in it where they are'],
    ['resume', 'make a paused journey live again'],
    ['archive', 'end a journey for good: nobody enters, nobody moves'],
  ] as const) {
    journeys
      .command(move)
      .description(what)
      .requiredOption('--app <app_id>')
      .requiredOption('--journey <journey_id>')
      .action(async (opts: { app: string; journey: string }) => {
        const moved = await moveJourney(await journeyPorts())(opts.app, commandLineActor, opts.journey, move);
        print(moved, () => [`Journey ${moved.journey_id} is ${moved.status}.`]);
      });
  }
  journeys
    .command('player')
    .description("a player's journeys: where they are and what they got")
    .requiredOption('--app <app_id>')
    .requiredOption('--player <profile_id>')
    .action(async (opts: { app: string; player: string }) => {
      const found = await playerJourneys(await journeyPorts())(opts.app, opts.player);
      print(found, () =>
        found.map(
          (row) =>
            `${row.journey_id} v${row.version}: ${row.status === 'active' ? `at ${row.step_id}${row.waiting_until ? ` until ${row.waiting_until}` : ''}` : `left (${row.done?.reason})`}; got ${row.sends.map((send) => `${send.channel} ${send.template_id}`).join(', ') || 'nothing'}`,
        ),
      );
    });
  const broadcasts = program.command('broadcasts').description('broadcasts: a template sent once to a segment\'s members (docs/api.md, "Broadcasts")');
  const broadcastPorts = () => broadcastPortsOf({ ...target(), dataDir: resolve(root, target().dataDir) });
  const broadcastLines = (b: BroadcastView) => {
    const suppressed = Object.entries(b.counts.suppressed).map(([reason, n]) => `${reason} ${n}`);
    return [
      `${b.broadcast_id} (${b.name}): ${b.status}, ${b.progress.done} of ${b.progress.total} done`,
      `template ${b.template_id} to segment ${b.segment_id}, ${b.purpose}${b.topic ? ` (topic ${b.topic})` : ''}, ${b.holdout_percent}% holdout`,
      `schedule: ${JSON.stringify(b.schedule)}${b.start_at ? `, starts ${b.start_at}` : ''}`,
      `entered ${b.counts.entered}, sent ${b.counts.sent}, held out ${b.counts.held_out}, deferred ${b.counts.deferred}, failed ${b.counts.failed}` +
        (suppressed.length > 0 ? `, suppressed: ${suppressed.join(', ')}` : ''),
    ];
  };
  broadcasts
    .command('list')
    .description("an application's broadcasts, newest first, with their status and progress")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const found = await listBroadcasts(await broadcastPorts())(opts.app);
      const rows = found.map((b) => ({
        broadcast_id: b.broadcast_id,
        name: b.name,
        status: b.status,
        done: b.progress.done,
        total: b.progress.total,
        sent: b.counts.sent,
      }));
      print(found, () => table(rows, ['broadcast_id', 'name', 'status', 'done', 'total', 'sent']));
    });
  broadcasts
    .command('show')
    .description('a broadcast: its schedule, progress and counts')
    .requiredOption('--app <app_id>')
    .requiredOption('--broadcast <broadcast_id>')
    .action(async (opts: { app: string; broadcast: string }) => {
      const found = await getBroadcast(await broadcastPorts())(opts.app, opts.broadcast);
      print(found, () => broadcastLines(found));
    });
  broadcasts
    .command('create')
    .description('a draft broadcast: start it with `broadcasts start`')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>')
    .requiredOption('--template <template_id>')
    .requiredOption('--segment <segment_id>')
    .option('--id <broadcast_id>', 'lower-case letters, digits, _ and - (default: made from the name)')
    .addOption(new Option('--purpose <purpose>').choices(['marketing', 'transactional']).default('marketing'))
    .option('--topic <topic>', 'a topic of the application (Settings, Messaging)')
    .option('--at <date-time>', 'send at this time (ISO 8601 with a zone) rather than when started')
    .option('--local <day>T<HH:MM>', 'send on this day at this local time of each player, e.g. 2026-12-24T18:00')
    .option('--holdout <percent>', 'members held out, 0 to 50', positiveInteger)
    .action(
      async (opts: {
        app: string;
        name: string;
        template: string;
        segment: string;
        id?: string;
        purpose: string;
        topic?: string;
        at?: string;
        local?: string;
        holdout?: number;
      }) => {
        if (opts.at && opts.local) throw new InvalidArgumentError('give --at or --local, not both');
        const [day, time] = (opts.local ?? '').split('T');
        const schedule = opts.at ? { kind: 'at', at: opts.at } : opts.local ? { kind: 'local', day, time } : { kind: 'now' };
        const created = await createBroadcast(await broadcastPorts())(opts.app, commandLineActor, {
          name: opts.name,
          template_id: opts.template,
          segment_id: opts.segment,
          purpose: opts.purpose,
          schedule,
          ...(opts.id ? { broadcast_id: opts.id } : {}),
          ...(opts.topic ? { topic: opts.topic } : {}),
          ...(opts.holdout !== undefined ? { holdout_percent: opts.holdout } : {}),
        });
        print(created, () => [`Created broadcast ${created.broadcast_id} as a draft.`, ...broadcastLines(created)]);
      },
    );
  for (const [action, said] of [
    ['start', 'started (or scheduled, with a set or local time)'],
    ['pause', 'paused'],
    ['resume', 'resumed'],
    ['cancel', 'cancelled'],
  ] as const) {
    broadcasts
      .command(action)
      .description(`${action} a broadcast`)
      .requiredOption('--app <app_id>')
      .requiredOption('--broadcast <broadcast_id>')
      .action(async (opts: { app: string; broadcast: string }) => {
        const changed = await changeBroadcast(await broadcastPorts())(opts.app, commandLineActor, opts.broadcast, action);
        print(changed, () => [`Broadcast ${changed.broadcast_id} ${said}.`, ...broadcastLines(changed)]);
      });
  }
  const push = program.command('push').description('web push');
  push
    .command('vapid')
    .description("generate an application's VAPID keys: the public key goes on the application, the private key into the secret store")
    .requiredOption('--app <app_id>')
    .option('--subject <subject>', 'contact for push services: mailto:… or https://… (default: the https portal origin)')
    .option('--rotate', 'replace existing keys; existing subscriptions stop receiving until their page runs initNotification again')
    .action(async (opts: { app: string; subject?: string; rotate?: boolean }) => {
      const keys = await generateVapidKeys(await office(), opts.app, commandLineActor, { subject: opts.subject, rotate: opts.rotate }).catch(
        (error: unknown) => {
          throw withOptionHint(error);
        },
      );
      print({ app_id: opts.app, vapid_public_key: keys.publicKey, vapid_subject: keys.subject }, () => [
        `VAPID keys of ${opts.app} ${opts.rotate ? 'replaced' : 'created'} (the private key is in the secret store only).`,
        `public key: ${keys.publicKey}`,
        `subject:    ${keys.subject}`,
      ]);
    });
  return program;
}

/** Runs the command line on `argv` (process.argv's shape); a refusal is told in one line and exits 1. */
export async function runAdmin(argv: string[], options: AdminOptions = {}): Promise<void> {
  try {
    await adminProgram(options).parseAsync(argv);
  } catch (error) {
    if (error instanceof TargetError || error instanceof DomainError) {
      const details = error instanceof ValidationError ? `: ${error.errors.join('; ')}` : '';
      console.error(`${error.message}${details}`);
    } else {
      console.error('admin failed:', (error as Error).message);
    }
    process.exit(1);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await runAdmin(process.argv);
