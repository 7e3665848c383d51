// Bench accounts in bulk (issue 34): the thousands of persons a gateway benchmark needs, made in a
// few multi-row inserts instead of one sign-up and one sign-in each.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../src/db/open-database';
import { account, company, oauthToken, person, personCompany } from '../src/db/schema';
import { hashPassword } from '../src/modules/auth/password';
import { hashToken } from '../src/modules/auth/token.service';

/** A bench account: its bearer token (as a sign-in would give) and who it is. */
export interface BenchStaff {
  username: string;
  token: string;
  accountId: number;
  personId: number;
}

/**
 * Creates `count` staff accounts (`${prefix}0` …, password `bench123`) beside `like` (the demo
 * administrator by default: same company, estate, role and language, so every topic is theirs),
 * each with its person and one live bearer token, in a few multi-row inserts: 4,000 take about a
 * second, where signing each up and in through the api took minutes (scrypt twice per account).
 */
export async function createBenchStaff(
  db: Db,
  count: number,
  options: { prefix?: string; like?: string; ttlSeconds?: number } = {},
): Promise<BenchStaff[]> {
  const prefix = options.prefix ?? 'bench';
  const [model] = await db
    .select({
      companyId: account.companyId,
      housingEstateId: account.housingEstateId,
      roleId: account.roleId,
      language: account.language,
      companyType: company.companyType,
    })
    .from(account)
    .innerJoin(company, eq(company.id, account.companyId))
    .where(eq(account.username, options.like ?? 'admin'));
  if (!model) throw new Error(`no account ${options.like ?? 'admin'} to model the bench accounts on`);
  const tenant = { companyId: model.companyId, housingEstateId: model.housingEstateId };
  // One hash for all: the accounts can still sign in, without paying scrypt 4,000 times.
  const passwordHash = await hashPassword('bench123');
  const expiresAt = new Date(Date.now() + (options.ttlSeconds ?? 7 * 24 * 3600) * 1000);
  const staff: BenchStaff[] = [];
  // Chunks keep each statement under PostgreSQL's 65,535 parameters.
  const CHUNK = 1000;
  for (let from = 0; from < count; from += CHUNK) {
    const numbers = Array.from({ length: Math.min(CHUNK, count - from) }, (_, i) => from + i);
    await db.transaction(async (tx) => {
      const persons = await tx
        .insert(person)
        .values(numbers.map((n) => ({ ...tenant, name: `Bench ${n}`, accountType: 4 })))
        .returning({ id: person.id, name: person.name });
      const personOf = new Map(persons.map((p) => [p.name, p.id]));
      const rows = numbers.map((n) => ({ n, personId: personOf.get(`Bench ${n}`)! }));
      await tx
        .insert(personCompany)
        .values(rows.map((r) => ({ ...tenant, personId: r.personId, companyType: model.companyType })));
      const accounts = await tx
        .insert(account)
        .values(
          rows.map((r) => ({
            ...tenant,
            personId: r.personId,
            username: `${prefix}${r.n}`,
            passwordHash,
            roleId: model.roleId,
            kind: 'staff' as const,
            language: model.language,
          })),
        )
        .returning({ id: account.id, personId: account.personId, username: account.username });
      const made = accounts.map((a) => ({ ...a, token: randomBytes(32).toString('base64url') }));
      await tx
        .insert(oauthToken)
        .values(made.map((a) => ({ tokenHash: hashToken(a.token), accountId: a.id, expiresAt })));
      staff.push(...made.map((a) => ({ username: a.username, token: a.token, accountId: a.id, personId: a.personId })));
    });
  }
  return staff.sort((a, b) => Number(a.username.slice(prefix.length)) - Number(b.username.slice(prefix.length)));
}
