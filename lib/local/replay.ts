/**
 * Replay against the local stack: the failure list is `<data dir>/on-failure.jsonl`,
 * records come from kinesalite, and each consumer is its handler module run in
 * this process with the environment the stack gives it (as the poller runs it).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { KinesisStreamEvent } from 'aws-lambda';
import { KinesisRecordReader } from '../../functions/adapters/kinesis-record-reader';
import type { ConsumerInvoker, ReplayPorts } from '../../functions/back-office/replay';
import { streamConsumers } from '../../functions/manifest/operations';
import { ingestStream } from '../../functions/manifest/resources';
import { lambdaContext } from './api-gateway';
import { invoke, scopeInvocations } from './invocation';
import { functionEnvironment, localClients, type LocalEndpoints } from './stack';
import { FileFailureList } from './stream-poller/on-failure';
import { localFunctionName, type ConsumerHandler } from './stream-poller/poller';

/** The consumers' handler modules, loaded on first use (their environment is read when imported, as at a cold start). */
class InProcessInvoker implements ConsumerInvoker {
  private readonly handlers = new Map<string, Promise<ConsumerHandler>>();

  constructor(private readonly root: string) {}

  async invoke(functionName: string, event: KinesisStreamEvent) {
    const consumer = streamConsumers.find((candidate) => localFunctionName(candidate) === functionName);
    if (!consumer) throw new Error(`no local consumer ${functionName}`);
    if (!this.handlers.has(functionName)) {
      const module = import(pathToFileURL(join(this.root, consumer.entry)).href) as Promise<{ handler: ConsumerHandler }>;
      this.handlers.set(
        functionName,
        module.then((loaded) => loaded.handler),
      );
    }
    const handler = await this.handlers.get(functionName)!;
    return invoke(handler, event, lambdaContext(functionName, 5 * 60_000));
  }
}

export async function localReplayPorts(root: string, dataDir: string, endpoints: LocalEndpoints): Promise<ReplayPorts> {
  await scopeInvocations();
  Object.assign(process.env, functionEnvironment(endpoints));
  return {
    failures: new FileFailureList(join(dataDir, 'on-failure.jsonl')),
    records: new KinesisRecordReader(localClients(endpoints).kinesis, ingestStream.localName),
    invoker: new InProcessInvoker(root),
    targets: streamConsumers.map((consumer) => ({ consumer, functionName: localFunctionName(consumer) })),
    region: endpoints.region,
  };
}
