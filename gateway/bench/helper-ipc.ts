// What the gateway benches share to drive their helper processes (tab workers, balancers, an api in a
// process of its own): a fork with IPC, and one request answered by one message of a type.
import { fork, type ChildProcess, type Serializable } from 'node:child_process';
import { join } from 'node:path';

/** A helper script of this folder in its own process (its work does not share the bench's event loop), with IPC; kept in `children` to be ended with the bench. */
export function forkHelper(children: ChildProcess[], file: string, env: Record<string, string> = {}): ChildProcess {
  const child = fork(join(import.meta.dirname, file), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.push(child);
  return child;
}

/** Sends `message` to the helper and resolves with its first message of type `replyType`. */
export function ask<T>(helper: ChildProcess, message: Serializable, replyType: string): Promise<T> {
  return new Promise((resolveReply) => {
    const onMessage = (m: { type: string }) => {
      if (m.type !== replyType) return;
      helper.off('message', onMessage);
      resolveReply(m as T);
    };
    helper.on('message', onMessage);
    helper.send(message);
  });
}
