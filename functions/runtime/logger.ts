import { Logger } from '@aws-lambda-powertools/logger';

/**
 * The one logger. Structured JSON with the request id (Powertools). Never log
 * keys, passwords, tokens, bodies or personal data: log ids and counts.
 */
export const logger = new Logger({ serviceName: 'urm' });
