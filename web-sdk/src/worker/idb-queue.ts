/** The report queue in IndexedDB: it outlives the worker, which the browser stops whenever it likes. */
import type { QueuedReport, ReportQueue } from './reports';

const DATABASE = 'urm-notification';
const STORE = 'reports';

function done<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

export function idbQueue(factory: IDBFactory): ReportQueue {
  let database: Promise<IDBDatabase> | undefined;
  const open = () => {
    const request = factory.open(DATABASE, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: 'id' });
    return done(request);
  };
  const store = async (mode: IDBTransactionMode) => {
    database ??= open().catch((error: unknown) => {
      database = undefined;
      throw error;
    });
    return (await database).transaction(STORE, mode).objectStore(STORE);
  };
  // Each call is one transaction; writes resolve when it has committed.
  const commit = (objects: IDBObjectStore) =>
    new Promise<void>((resolve, reject) => {
      objects.transaction.oncomplete = () => resolve();
      objects.transaction.onerror = () => reject(objects.transaction.error);
      objects.transaction.onabort = () => reject(objects.transaction.error);
    });
  return {
    async put(reports: QueuedReport[]) {
      const objects = await store('readwrite');
      for (const report of reports) objects.put(report);
      await commit(objects);
    },
    async all() {
      return done((await store('readonly')).getAll() as IDBRequest<QueuedReport[]>);
    },
    async remove(ids: string[]) {
      const objects = await store('readwrite');
      for (const id of ids) objects.delete(id);
      await commit(objects);
    },
  };
}
