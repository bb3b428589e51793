/**
 * The DynamoDB document client, created once per container. One module per
 * client (functions/adapters/clients/), so a function bundles only the clients
 * it imports. The endpoint comes from AWS_ENDPOINT_URL_DYNAMODB in the local stack.
 * Every client keeps the SDK's default HTTP handler, which keeps connections alive.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

export const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}), {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
});
