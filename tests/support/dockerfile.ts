// What an image runs, read from its Dockerfile's last stage, for tests that simulate Docker.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './product';

export interface ImageStart {
  entrypoint: string[];
  cmd: string[];
  user?: string;
  env: Record<string, string>;
}

/** ENV, USER, ENTRYPOINT and CMD (exec form) of `<tier>/Dockerfile`'s last stage. */
export function imageStart(tier: 'api' | 'gateway'): ImageStart {
  const text = readFileSync(join(repoRoot, tier, 'Dockerfile'), 'utf8');
  const last = text.slice(text.lastIndexOf('\nFROM '));
  const json = (instruction: string) => {
    const m = new RegExp(`^${instruction} (\\[.*\\])$`, 'm').exec(last);
    return m ? (JSON.parse(m[1]) as string[]) : [];
  };
  const env = Object.fromEntries(
    [...last.matchAll(/^ENV ((?:.*\\\n)*.*)$/gm)].flatMap((m) =>
      [...m[1].matchAll(/(\w+)=(\S+)/g)].map((kv) => [kv[1], kv[2]]),
    ),
  );
  return { entrypoint: json('ENTRYPOINT'), cmd: json('CMD'), user: /^USER (\S+)$/m.exec(last)?.[1], env };
}
