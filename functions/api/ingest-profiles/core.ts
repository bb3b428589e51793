/**
 * POST /profiles: the rules of a profile record that its schema cannot say,
 * then the shared ingestion (ownership, insert ids, stream write, receipt).
 */
import type { Scope } from '../../domain/api-keys';
import { directives } from '../../domain/attributes';
import { assertBrowserMayWrite, assertBrowserProvesIdentity, browserProfileInsertId } from '../../domain/browser-access';
import { ValidationError } from '../../domain/errors';
import { PROOF_FIELD, type IdentityKeyring } from '../../domain/identity';
import { ingestRecords, type IngestDeps, type WriteReceipt } from '../../domain/ingest';
import { addedWebTokenProblems, type PushEndpointPolicy } from '../../domain/push';
import { capMessages, pathOf } from '../../domain/validation';
import type { ProfileRecord } from './schema';

const recordFields = new Set<string>(['app_id', 'profile_id', 'urm_date_time', 'urm_insert_id', 'urm_ip', PROOF_FIELD]);
const directiveNames = new Set<string>(directives);
const alongsideDelete = new Set<string>(['app_id', 'profile_id', 'urm_date_time', 'urm_insert_id', 'urm_delete_profile', PROOF_FIELD]);

/** Where each attribute of a record is named: top level or a directive. */
function placesOfNames(record: ProfileRecord): Map<string, string[]> {
  const places = new Map<string, string[]>();
  const add = (name: string, place: string) => places.set(name, [...(places.get(name) ?? []), place]);
  for (const [field, value] of Object.entries(record)) {
    if (recordFields.has(field) || field === 'urm_merge' || field === 'urm_delete_profile') continue;
    if (!directiveNames.has(field)) add(field, 'top level');
    else if (Array.isArray(value)) for (const name of new Set(value as string[])) add(name, field);
    else for (const name of Object.keys(value as object)) add(name, field);
  }
  return places;
}

export function profileRecordProblems(record: ProfileRecord, index: number): string[] {
  const problems: string[] = [];
  const at = (field?: string) => pathOf(`/${index}`, field);
  if (record.urm_delete_profile !== undefined) {
    const others = Object.keys(record).filter((field) => !alongsideDelete.has(field));
    if (others.length > 0) {
      problems.push(`${at('urm_delete_profile')} cannot be combined with ${others.join(', ')}`);
    }
  }
  if (record.urm_merge?.includes(record.profile_id)) {
    problems.push(`${at('urm_merge')} must not name the profile itself`);
  }
  for (const [name, places] of placesOfNames(record)) {
    if (places.length > 1) {
      problems.push(`${at()} names the attribute ${JSON.stringify(name)} more than once (${places.join(', ')})`);
    }
  }
  return problems;
}

function withoutProof({ [PROOF_FIELD]: _proof, ...record }: ProfileRecord) {
  return record;
}

export interface IngestProfilesDeps extends IngestDeps {
  identity: IdentityKeyring;
  /** Web push tokens are stored only with an endpoint send_push would call, whatever the key. */
  pushEndpoints: PushEndpointPolicy;
}

export function ingestProfiles(deps: IngestProfilesDeps) {
  const ingest = ingestRecords('profile', deps);
  return async (records: ProfileRecord[], appId: string, scope: Scope): Promise<WriteReceipt> => {
    const problems = records.flatMap((record, index) => [...profileRecordProblems(record, index), ...addedWebTokenProblems(record, index, deps.pushEndpoints)]);
    if (problems.length > 0) throw new ValidationError(capMessages(problems));
    // The proof is a credential: it stops here, never on the stream or the profile.
    if (scope !== 'browser')
      return ingest(
        records.map((record) => (PROOF_FIELD in record ? withoutProof(record) : record)),
        appId,
      );
    // A browser key writes the push SDK's records only, a known profile only with its proof, and under ids no
    // server-key record can have.
    assertBrowserMayWrite('profile', records);
    await assertBrowserProvesIdentity(records, appId, deps.identity);
    return ingest(
      records.map((record) => ({ ...withoutProof(record), urm_insert_id: browserProfileInsertId(record, deps.newId) })),
      appId,
    );
  };
}
