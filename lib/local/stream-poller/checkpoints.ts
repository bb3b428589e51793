/**
 * The event-source mapping's checkpoints: the last processed sequence number
 * per consumer and shard, kept in a JSON file, so a restart of the local stack
 * resumes where the last run stopped.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';

/** Last processed sequence number per consumer and shard, kept in a JSON file. */
export class FileCheckpointStore {
  private state: Record<string, Record<string, string>> = {};
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {}

  async load(): Promise<void> {
    try {
      this.state = JSON.parse(await readFile(this.path, 'utf8')) as Record<string, Record<string, string>>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  get(consumerId: string, shardId: string): string | undefined {
    return this.state[consumerId]?.[shardId];
  }

  /** Records the checkpoint and persists it atomically (write, then rename). */
  set(consumerId: string, shardId: string, sequenceNumber: string): Promise<void> {
    this.state[consumerId] ??= {};
    this.state[consumerId][shardId] = sequenceNumber;
    const snapshot = JSON.stringify(this.state);
    this.writing = this.writing.then(async () => {
      await writeFile(`${this.path}.tmp`, snapshot);
      await rename(`${this.path}.tmp`, this.path);
    });
    return this.writing;
  }
}
