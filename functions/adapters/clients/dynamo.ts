/**
 * The DynamoDB document client, created once per container. One module per
 * client (functions/adapters/clients/), so a function bundles only the clients
 * it imports. The endpoint comes from AWS_ENDPOINT_URL_DYNAMODB in the local stack.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keepAlive } from './keep-alive';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({ requestHandler: keepAlive() }), {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});
