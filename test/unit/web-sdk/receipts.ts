/** For the SDK's tests: an API that answers POSTs with write receipts, failing the entries a test chooses, as Kinesis does. */

export interface ReceiptApi {
  fetch: typeof fetch;
  /** The insert ids of each POST, in order. */
  posts: string[][];
  /** The waits asked for between attempts, instead of waited. */
  waits: number[];
  wait: (ms: number) => Promise<void>;
}

/** `refuses(insertId, post, index)` (both counting from 0) says whether that POST's receipt fails its record at index. */
export function receiptApi(refuses: (insertId: string, post: number, index: number) => boolean): ReceiptApi {
  const posts: string[][] = [];
  const waits: number[] = [];
  const answer = (async (_url: string, init: RequestInit) => {
    const ids = (JSON.parse(String(init.body)) as { urm_insert_id: string }[]).map((record) => record.urm_insert_id);
    const post = posts.push(ids) - 1;
    const Records = ids.map((id, i) =>
      refuses(id, post, i)
        ? { ErrorCode: 'ProvisionedThroughputExceededException', ErrorMessage: 'Rate exceeded for shard shardId-000000000000' }
        : { SequenceNumber: `4959${post}${i}`, ShardId: 'shardId-000000000000' },
    );
    return Response.json({ EncryptionType: 'NONE', FailedRecordCount: Records.filter((r) => 'ErrorCode' in r).length, Records });
  }) as unknown as typeof fetch;
  return { fetch: answer, posts, waits, wait: async (ms) => void waits.push(ms) };
}
