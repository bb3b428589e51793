/**
 * Turns a Node HTTP request into the API Gateway (REST, proxy integration)
 * event Lambda receives, and the handler's result back into a response, so
 * the local server runs the very handler modules Lambda runs.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface RouteMatch {
  /** The route's resource path, e.g. `/profiles/{profile_id}`. */
  resource: string;
  pathParameters: Record<string, string> | null;
}

export function toProxyEvent(request: IncomingMessage, url: URL, body: Buffer, match: RouteMatch): APIGatewayProxyEvent {
  const headers: Record<string, string> = {};
  const multiValueHeaders: Record<string, string[]> = {};
  for (let i = 0; i < request.rawHeaders.length; i += 2) {
    const name = request.rawHeaders[i];
    const value = request.rawHeaders[i + 1];
    headers[name] = value;
    multiValueHeaders[name] ??= [];
    multiValueHeaders[name].push(value);
  }
  const query: Record<string, string> = {};
  const multiQuery: Record<string, string[]> = {};
  for (const [name, value] of url.searchParams) {
    query[name] = value;
    multiQuery[name] ??= [];
    multiQuery[name].push(value);
  }
  const hasQuery = Object.keys(query).length > 0;
  const method = request.method ?? 'GET';
  const now = Date.now();
  return {
    resource: match.resource,
    path: url.pathname,
    httpMethod: method,
    headers,
    multiValueHeaders,
    queryStringParameters: hasQuery ? query : null,
    multiValueQueryStringParameters: hasQuery ? multiQuery : null,
    pathParameters: match.pathParameters,
    stageVariables: null,
    // As API Gateway with binaryMediaTypes */* (lib/aws/constructs/ingestion-api.ts): the bytes as sent, base64.
    body: body.length > 0 ? body.toString('base64') : null,
    isBase64Encoded: body.length > 0,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      authorizer: null,
      protocol: `HTTP/${request.httpVersion}`,
      httpMethod: method,
      path: url.pathname,
      stage: 'local',
      requestId: randomUUID(),
      requestTimeEpoch: now,
      resourceId: 'local',
      resourcePath: match.resource,
      identity: {
        sourceIp: request.socket.remoteAddress ?? '127.0.0.1',
        userAgent: request.headers['user-agent'] ?? null,
        accessKey: null,
        accountId: null,
        apiKey: null,
        apiKeyId: null,
        caller: null,
        clientCert: null,
        cognitoAuthenticationProvider: null,
        cognitoAuthenticationType: null,
        cognitoIdentityId: null,
        cognitoIdentityPoolId: null,
        principalOrgId: null,
        user: null,
        userArn: null,
      },
    },
  };
}

/** A Lambda context for one invocation of the named function. */
export function lambdaContext(functionName: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  const unsupported = () => {
    throw new Error('callback-style completion is not supported');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '256',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: unsupported,
    fail: unsupported,
    succeed: unsupported,
  };
}

export function sendProxyResult(response: ServerResponse, result: APIGatewayProxyResult, extraHeaders: Record<string, string> = {}): void {
  const headers: Record<string, string | string[]> = { ...extraHeaders };
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) headers[name] = values.map(String);
  response.writeHead(result.statusCode, headers);
  response.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
