/**
 * Figure 6: what a million records cost in AWS, from what the other figures
 * measured (bytes per record on the stream, handler and consumer time,
 * DynamoDB capacity units per record) and the dated list prices of
 * aws-prices.ts. Baseline: the stream alone (Kinesis data in and out for the
 * same records), the floor any design that goes through this stream pays.
 */
import { functionDefaults } from '../../lib/aws/constructs/function-defaults';
import { streamConsumers } from '../../functions/manifest/operations';
import { awsPrices, type AwsPrices } from './aws-prices';

const MILLION = 1_000_000;
const GiB = 1024 ** 3;

export interface CostInputs {
  recordsPerRequest: number;
  /** Bytes of one record on the stream (envelope + partition key). */
  bytesPerRecord: number;
  /** Billed duration of one ingestion request (handler + stream write). */
  ingestMsPerRequest: number;
  consumerBatchSize: number;
  /** Billed duration of one consumer invocation of a full batch. */
  consumerMsPerBatch: number;
  readUnitsPerRecord: number;
  writeUnitsPerRecord: number;
}

export interface CostBreakdown {
  apiGateway: number;
  lambdaIngest: number;
  kinesisIn: number;
  kinesisOut: number;
  lambdaConsumer: number;
  dynamodb: number;
  total: number;
  /** Kinesis in + out alone: the baseline. */
  streamOnly: number;
}

const memoryGb = functionDefaults.memorySize / 1024;

/** What `invocations` of a function with the default memory cost, each billed `msEach`. */
export function lambdaCost(invocations: number, msEach: number, prices: AwsPrices): number {
  const billedMs = Math.ceil(msEach / prices.lambda.billingGranularityMs) * prices.lambda.billingGranularityMs;
  return invocations * (prices.lambda.perMillionRequests / MILLION) + invocations * (billedMs / 1000) * memoryGb * prices.lambda.arm64PerGbSecond;
}

export function costPerMillion(inputs: CostInputs, prices: AwsPrices = awsPrices): CostBreakdown {
  const requests = MILLION / inputs.recordsPerRequest;
  const billedInBytes = Math.ceil(inputs.bytesPerRecord / prices.kinesis.ingestRoundingBytes) * prices.kinesis.ingestRoundingBytes;
  // Every consumer's event-source mapping reads the whole shard; its filter applies after the read.
  const readers = streamConsumers.length;
  const apiGateway = requests * (prices.apiGateway.restPerMillionRequests / MILLION);
  const lambdaIngest = lambdaCost(requests, inputs.ingestMsPerRequest, prices);
  const kinesisIn = ((MILLION * billedInBytes) / GiB) * prices.kinesis.onDemandPerGbIngested;
  const kinesisOut = ((readers * MILLION * inputs.bytesPerRecord) / GiB) * prices.kinesis.onDemandPerGbRetrieved;
  const lambdaConsumer = lambdaCost(MILLION / inputs.consumerBatchSize, inputs.consumerMsPerBatch, prices);
  const dynamodb =
    MILLION * inputs.readUnitsPerRecord * (prices.dynamodb.onDemandPerMillionReadUnits / MILLION) +
    MILLION * inputs.writeUnitsPerRecord * (prices.dynamodb.onDemandPerMillionWriteUnits / MILLION);
  const total = apiGateway + lambdaIngest + kinesisIn + kinesisOut + lambdaConsumer + dynamodb;
  return { apiGateway, lambdaIngest, kinesisIn, kinesisOut, lambdaConsumer, dynamodb, total, streamOnly: kinesisIn + kinesisOut };
}

/** The stream's own hourly fee, which no volume amortises: per month of 730 hours. */
export const streamFeePerMonth = (prices: AwsPrices = awsPrices) => prices.kinesis.onDemandPerStreamHour * 730;
