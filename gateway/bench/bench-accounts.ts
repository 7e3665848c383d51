// Creates the bench's persons: one staff account with a live token each (one upstream per person).
import { createBenchStaff, type BenchStaff } from '../../api/bench/bench-staff';
import type { Db } from '../../api/src/db/open-database';

export interface BenchApi {
  url: string;
  db: Db;
  realtime: {
    publish(personIds: number[], message: Record<string, unknown>): void | Promise<void>;
    connectionCount(personId?: number): number;
  };
  close(): Promise<void>;
}

/**
 * Creates `count` staff accounts (bench0 … with the demo administrator's role, so every topic is
 * theirs) in bulk in the api's database, each with its person and a bearer token.
 */
export async function createBenchPersons(api: BenchApi, count: number): Promise<BenchStaff[]> {
  return createBenchStaff(api.db, count);
}
