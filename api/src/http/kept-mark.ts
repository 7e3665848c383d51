/**
 * Answers a route hands out again and again, unchanged (kept counters, a caller's current user, a
 * record by id). Apart from kept-answer.ts so that the services that keep answers do not import
 * the route machinery (`npm run lint:cycles`).
 */
const kept = new WeakSet<object>();

/** A kept answer's envelope as written: its text, and its compressed bytes by encoding (write-envelope.ts). */
export interface KeptEnvelope {
  text: string;
  encoded: { br?: Buffer; gzip?: Buffer };
}

/**
 * Marks an answer that is kept and answered again as it is (issue 34): never changed once handed
 * out (a change makes a new object). Its envelope is then written out once per route and
 * language and the text reused, instead of building and serializing the envelope on every call.
 */
export function keptAnswer<T extends object>(answer: T): T {
  kept.add(answer);
  return answer;
}

/** Whether `answer` was marked by {@link keptAnswer}. */
export const isKept = (answer: object): boolean => kept.has(answer);
