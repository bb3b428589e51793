import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { Scope } from '../domain/api-keys';

/** Who is calling: established by the API-key middleware. */
export interface Principal {
  appId: string;
  scope: Scope;
  keyId: string;
}

export type ApiEvent = APIGatewayProxyEvent;
/** An API Gateway event whose body the JSON middleware has parsed (and maybe validated). */
export type JsonEvent<T = unknown> = Omit<APIGatewayProxyEvent, 'body'> & { body: T };
export type ApiResult = APIGatewayProxyResult;
export type AuthedContext = Context & { principal: Principal };
/** An API Gateway event whose query string has been validated. */
export type QueryEvent<Q = Record<string, string>> = Omit<APIGatewayProxyEvent, 'queryStringParameters'> & { queryStringParameters: Q };
