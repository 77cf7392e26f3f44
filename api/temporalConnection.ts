import { Connection, type ConnectionOptions } from '@temporalio/client';

/**
 * The API's connection to Temporal. The client carries each call's deadline and metadata in an AsyncLocalStorage
 * and leaves it enabled after the first call, and on Node 20 an enabled AsyncLocalStorage runs promise hooks for
 * every promise of the process: every request the API serves paid for them, although most never call Temporal
 * (about 11 µs of the 196 µs of CPU a get-session took, 16 connections as in bench/httpThroughput.ts). This connection
 * counts the calls in its scope and disables the storage when the last one ends; the next call enables it again.
 * Every scope the client opens goes through these methods, the namespace header of each RPC included (SDK 1.24:
 * `callContextStorage.run` appears nowhere else); an SDK that opened one any other way must be counted here too,
 * or a call ending beside it would disable the storage under it (test/api/temporalConnection.test.ts).
 */
export class ApiTemporalConnection extends Connection {
  private callsInScope = 0;

  static override async connect(options?: ConnectionOptions): Promise<ApiTemporalConnection> {
    return (await super.connect(options)) as ApiTemporalConnection;
  }

  private async scoped<T>(call: () => Promise<T>): Promise<T> {
    this.callsInScope++;
    try {
      return await call();
    } finally {
      if (--this.callsInScope === 0) this.callContextStorage.disable();
    }
  }

  override withDeadline<T>(deadline: number | Date, fn: () => Promise<T>): Promise<T> {
    return this.scoped(() => super.withDeadline(deadline, fn));
  }

  override withAbortSignal<T>(abortSignal: AbortSignal, fn: () => Promise<T>): Promise<T> {
    return this.scoped(() => super.withAbortSignal(abortSignal, fn));
  }

  override withMetadata<T>(metadata: Parameters<Connection['withMetadata']>[0], fn: () => Promise<T>): Promise<T> {
    return this.scoped(() => super.withMetadata(metadata, fn));
  }

  override withApiKey<T>(apiKey: string, fn: () => Promise<T>): Promise<T> {
    return this.scoped(() => super.withApiKey(apiKey, fn));
  }
}
