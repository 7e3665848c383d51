/** What is pending in every writer made by linesPerTurn in this process (several servers in tests). */
const pendingWriters = new Set<() => void>();
let flushOnExit = false;

/**
 * A writer of log lines for the api's and the gateway's access logs (Node only): the lines written
 * in one turn of the event loop go out in ONE write at its end (setImmediate) instead of one write
 * each (issue 34: under load several calls end in one turn). A line still leaves within the turn
 * its call ended in, and what is pending when the process exits is written then (the destination
 * is synchronous).
 */
export function linesPerTurn(stream: { write(text: string): void }): (line: string) => void {
  if (!flushOnExit) {
    flushOnExit = true;
    process.once('exit', () => pendingWriters.forEach((flush) => flush()));
  }
  let pending = '';
  const flush = () => {
    if (!pending) return;
    const text = pending;
    pending = '';
    stream.write(text);
  };
  pendingWriters.add(flush);
  return (line) => {
    if (!pending) setImmediate(flush);
    pending += line;
  };
}
