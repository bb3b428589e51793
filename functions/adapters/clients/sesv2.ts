/** The SES v2 client, created once per container (one module per client: see dynamo.ts). */
import { SESv2Client } from '@aws-sdk/client-sesv2';

export const sesv2 = new SESv2Client({});
