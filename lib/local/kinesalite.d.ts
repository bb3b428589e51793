declare module 'kinesalite' {
  import type { Server } from 'node:http';
  interface KinesaliteOptions {
    path?: string;
    createStreamMs?: number;
    deleteStreamMs?: number;
    updateStreamMs?: number;
    shardLimit?: number;
    ssl?: boolean;
  }
  export default function kinesalite(options?: KinesaliteOptions): Server;
}
