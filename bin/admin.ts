/**
 * `npm run admin -- …`: the back office on the command line. Against the local
 * stack by default (it must be running: `npm start`), or against a deployed
 * stack with `--stack NAME` and the usual AWS credentials and region.
 */
import '../lib/local/quiet-sdk-warning';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Command, InvalidArgumentError, Option } from 'commander';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DynamoAffiliateStore } from '../functions/shared/adapters/dynamo-affiliate-store';
import { DynamoAppStore } from '../functions/shared/adapters/dynamo-app-store';
import { DynamoChannelStore } from '../functions/shared/adapters/dynamo-channel-store';
import { DynamoKeyStore } from '../functions/shared/adapters/dynamo-key-store';
import { DynamoRejectionLog } from '../functions/shared/adapters/dynamo-rejection-log';
import { scopes, type Scope } from '../functions/shared/domain/api-keys';
import { DomainError, ValidationError } from '../functions/shared/domain/errors';
import { createApp, issueKey, listKeys, listRejections, requireApp, revokeKey, checkOrigin, type BackOffice } from '../lib/back-office';
import { createChannel, listChannels, setChannelEnabled } from '../lib/back-office';
import { listAffiliates } from '../lib/back-office';
import { generateVapidKeys } from '../lib/back-office';
import { SSMClient } from '@aws-sdk/client-ssm';
import { SsmSecretStore } from '../functions/shared/adapters/ssm-secret-store';
import { secretsPrefixOutput } from '../functions/shared/manifest/secrets';
import { localBackOffice, localClients, type LocalEndpoints } from '../lib/local/stack';
import { tableOutputName, tables } from '../functions/shared/manifest/resources';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

class AdminError extends Error {}

interface TargetOptions {
  stack?: string;
  region?: string;
  dataDir: string;
  json?: boolean;
}

async function deployedBackOffice(stackName: string, region?: string): Promise<BackOffice> {
  const cloudFormation = new CloudFormationClient({ region });
  const out = await cloudFormation.send(new DescribeStacksCommand({ StackName: stackName }));
  const outputs = new Map((out.Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey, o.OutputValue]));
  const tableName = (definition: (typeof tables)[keyof typeof tables]) => {
    const name = outputs.get(tableOutputName(definition));
    if (!name) throw new AdminError(`Stack ${stackName} has no output ${tableOutputName(definition)}; is it a urm stack?`);
    return name;
  };
  const document = DynamoDBDocumentClient.from(new DynamoDBClient({ region }));
  return {
    apps: new DynamoAppStore(document, tableName(tables.apps)),
    keys: new DynamoKeyStore(document, tableName(tables.keys)),
    rejections: new DynamoRejectionLog(document, tableName(tables.rejections)),
    affiliates: new DynamoAffiliateStore(document, tableName(tables.affiliates)),
    channels: new DynamoChannelStore(document, tableName(tables.channels)),
    secrets: new SsmSecretStore(new SSMClient({ region }), secretsPrefixOf(stackName, outputs)),
  };
}

/** The SSM path of a deployed stack's secrets, from its output. */
function secretsPrefixOf(stackName: string, outputs: Map<string | undefined, string | undefined>): string {
  const prefix = outputs.get(secretsPrefixOutput);
  if (!prefix) throw new AdminError(`Stack ${stackName} has no output ${secretsPrefixOutput}; deploy the current version first.`);
  return prefix;
}

async function localOffice(dataDir: string): Promise<BackOffice> {
  const file = resolve(root, dataDir, 'stack.json');
  let endpoints: LocalEndpoints;
  try {
    endpoints = JSON.parse(readFileSync(file, 'utf8')) as LocalEndpoints;
  } catch {
    throw new AdminError(`No local stack found (${file} is missing). Start it with npm start, or pass --stack NAME.`);
  }
  const clients = localClients(endpoints);
  try {
    await clients.dynamo.send(new ListTablesCommand({ Limit: 1 }));
  } catch {
    throw new AdminError(`The local stack is not running (nothing answers at ${endpoints.dynamodb_endpoint}). Start it with npm start.`);
  }
  return localBackOffice(clients.document);
}

async function office(options: TargetOptions): Promise<BackOffice> {
  return options.stack ? deployedBackOffice(options.stack, options.region) : localOffice(options.dataDir);
}

function print(options: TargetOptions, value: unknown, lines: () => string[]): void {
  console.log(options.json ? JSON.stringify(value, null, 2) : lines().join('\n'));
}

function table(rows: Record<string, unknown>[], columns: string[]): string[] {
  if (rows.length === 0) return ['(none)'];
  const cell = (value: unknown) => (value === undefined || value === null ? '-' : Array.isArray(value) ? value.join(',') : String(value));
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (values: string[]) => values.map((v, i) => v.padEnd(widths[i])).join('  ').trimEnd();
  return [line(columns), ...rows.map((r) => line(columns.map((c) => cell(r[c]))))];
}

const origin = (field: string) => (value: string) => {
  try {
    return checkOrigin(value, field);
  } catch (error) {
    throw new InvalidArgumentError((error as ValidationError).errors?.[0] ?? String(error));
  }
};
const collect = (parse: (v: string) => string) => (value: string, previous: string[] = []) => [...previous, parse(value)];

export function adminProgram(): Command {
  const program = new Command('admin')
    .description('urm back office: applications, keys and email channels')
    .option('--stack <name>', 'a deployed stack (default: the local stack)')
    .option('--region <region>', 'AWS region of the deployed stack')
    .option('--data-dir <dir>', 'data directory of the local stack', process.env.URM_DATA_DIR || '.urm')
    .option('--json', 'print JSON')
    .showHelpAfterError();
  const target = () => program.opts<TargetOptions>();

  const app = program.command('app').description('applications');
  app
    .command('create')
    .description('create an application')
    .requiredOption('--name <name>', 'a name for people')
    .option('--portal-origin <origin>', 'origin of its portal, e.g. https://portal.example.com', origin('portal origin'))
    .option('--site-origin <origin>', 'an origin allowed to use its browser key (repeatable)', collect(origin('site origin')))
    .action(async (opts: { name: string; portalOrigin?: string; siteOrigin?: string[] }) => {
      const created = await createApp(await office(target()), { name: opts.name, portalOrigin: opts.portalOrigin, siteOrigins: opts.siteOrigin });
      print(target(), created, () => [`Created application ${created.app_id} (${created.name})`]);
    });
  app
    .command('list')
    .description('list applications')
    .action(async () => {
      const apps = await (await office(target())).apps.list();
      print(target(), apps, () => table(apps as unknown as Record<string, unknown>[], ['app_id', 'name', 'created_at', 'portal_origin', 'site_origins']));
    });
  app
    .command('update')
    .description("change an application's name or origins")
    .argument('<app_id>')
    .option('--name <name>')
    .option('--portal-origin <origin>', 'origin of its portal', origin('portal origin'))
    .option('--site-origin <origin>', 'replaces the allowed site origins (repeatable)', collect(origin('site origin')))
    .action(async (appId: string, opts: { name?: string; portalOrigin?: string; siteOrigin?: string[] }) => {
      const backOffice = await office(target());
      await requireApp(backOffice, appId);
      const updated = await backOffice.apps.update(appId, { name: opts.name, portal_origin: opts.portalOrigin, site_origins: opts.siteOrigin });
      print(target(), updated, () => [`Updated application ${appId}`]);
    });

  const key = program.command('key').description('API keys');
  key
    .command('create')
    .description('issue a key; it is shown once, only its hash is kept')
    .requiredOption('--app <app_id>')
    .addOption(new Option('--scope <scope>', 'what the key may do').choices([...scopes]).makeOptionMandatory())
    .action(async (opts: { app: string; scope: Scope }) => {
      const issued = await issueKey(await office(target()), opts.app, opts.scope);
      print(target(), { key: issued.key, ...issued.summary }, () => [
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
      const keys = await listKeys(await office(target()), opts.app);
      print(target(), keys, () => table(keys as unknown as Record<string, unknown>[], ['key_id', 'scope', 'created_at', 'revoked_at']));
    });
  key
    .command('revoke')
    .description('revoke a key (it stops working within 30 seconds)')
    .requiredOption('--app <app_id>')
    .argument('<key_id>')
    .action(async (keyId: string, opts: { app: string }) => {
      await revokeKey(await office(target()), opts.app, keyId);
      print(target(), { revoked: keyId }, () => [`Revoked key ${keyId}`]);
    });
  const channel = program.command('channel').description('email channels: the senders send_email refers to by channel_id');
  channel
    .command('create')
    .description('create an enabled email channel')
    .requiredOption('--app <app_id>')
    .requiredOption('--name <name>', 'a name for people')
    .requiredOption('--from-email <address>', 'default sender address (a verified SES identity in AWS)')
    .requiredOption('--from-name <name>', 'default sender name')
    .action(async (opts: { app: string; name: string; fromEmail: string; fromName: string }) => {
      const created = await createChannel(await office(target()), {
        appId: opts.app,
        name: opts.name,
        fromEmail: opts.fromEmail,
        fromName: opts.fromName,
      });
      print(target(), created, () => [`Created channel ${created.channel_id} (${created.name}) for ${opts.app}`]);
    });
  channel
    .command('list')
    .description("list an application's channels")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const channels = await listChannels(await office(target()), opts.app);
      print(target(), channels, () =>
        table(channels as unknown as Record<string, unknown>[], ['channel_id', 'name', 'from_email', 'from_name', 'enabled', 'created_at']),
      );
    });
  for (const [command, enabled] of [['disable', false], ['enable', true]] as const) {
    channel
      .command(command)
      .description(enabled ? 'let a channel send again' : 'stop a channel: send_email answers 404 for it')
      .requiredOption('--app <app_id>')
      .argument('<channel_id>')
      .action(async (channelId: string, opts: { app: string }) => {
        const updated = await setChannelEnabled(await office(target()), opts.app, channelId, enabled);
        print(target(), updated, () => [`${enabled ? 'Enabled' : 'Disabled'} channel ${channelId}`]);
      });
  }
  program
    .command('rejections')
    .description('records the consumers rejected when applying them (kept 14 days)')
    .requiredOption('--app <app_id>')
    .option('--limit <n>', 'how many, newest first', (v) => {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1 || n > 1000) throw new InvalidArgumentError('a whole number from 1 to 1000');
      return n;
    }, 20)
    .action(async (opts: { app: string; limit: number }) => {
      const rejections = await listRejections(await office(target()), opts.app, opts.limit);
      print(target(), rejections, () =>
        table(rejections as unknown as Record<string, unknown>[], ['received_at', 'profile_id', 'urm_insert_id', 'kind', 'reason']),
      );
    });
  const affiliate = program.command('affiliate').description('affiliates registered through register_affiliate');
  affiliate
    .command('list')
    .description("list an application's affiliates (never their passwords)")
    .requiredOption('--app <app_id>')
    .action(async (opts: { app: string }) => {
      const affiliates = await listAffiliates(await office(target()), opts.app);
      print(target(), affiliates, () =>
        table(affiliates as unknown as Record<string, unknown>[], ['affiliate_id', 'username', 'email', 'first_name', 'last_name', 'created_at']),
      );
    });
  const push = program.command('push').description('web push');
  push
    .command('vapid')
    .description("generate an application's VAPID keys: the public key goes on the application, the private key into the secret store")
    .requiredOption('--app <app_id>')
    .option('--subject <subject>', 'contact for push services: mailto:… or https://… (default: the https portal origin)')
    .option('--rotate', 'replace existing keys; existing subscriptions stop receiving until their page runs initNotification again')
    .action(async (opts: { app: string; subject?: string; rotate?: boolean }) => {
      const keys = await generateVapidKeys(await office(target()), opts.app, { subject: opts.subject, rotate: opts.rotate });
      print(target(), { app_id: opts.app, vapid_public_key: keys.publicKey, vapid_subject: keys.subject }, () => [
        `VAPID keys of ${opts.app} ${opts.rotate ? 'replaced' : 'created'} (the private key is in the secret store only).`,
        `public key: ${keys.publicKey}`,
        `subject:    ${keys.subject}`,
      ]);
    });
  return program;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  adminProgram()
    .parseAsync(process.argv)
    .catch((error) => {
      if (error instanceof AdminError || error instanceof DomainError) {
        const details = error instanceof ValidationError ? `: ${error.errors.join('; ')}` : '';
        console.error(`${error.message}${details}`);
      } else {
        console.error('admin failed:', (error as Error).message);
      }
      process.exit(1);
    });
}
