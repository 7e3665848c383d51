// The fixed answer of proxy-cost.bench.ts: a plain node:http server that answers every call with
// the same ~300-byte JSON envelope, so that only what sits in front of it (the pipe or the
// gateway) differs between the two measured paths.
import http from 'node:http';

const body = JSON.stringify({
  code: 200,
  msg: 'ok',
  data: { id: 1, name: 'A fixed answer', padding: 'x'.repeat(200), list: [1, 2, 3] },
});
http
  .createServer((req, res) => {
    req.resume();
    req.once('end', () => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'x-request-id': req.headers['x-request-id'] ?? 'none',
      });
      res.end(body);
    });
  })
  .listen(Number(process.env.ANSWER_PORT), '127.0.0.1');
