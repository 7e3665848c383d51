// The yardstick of call-cost.bench.ts: a plain node:http pipe that relays every call to
// PIPE_TARGET over kept-alive connections and streams the answer back, nothing else. What it
// costs Node to receive, forward and answer a call; the api's and the gateway's CPU per call are
// reported as multiples of it, measured in the same run.
import http from 'node:http';

const target = new URL(process.env.PIPE_TARGET);
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const prefix = process.env.PIPE_STRIP_PREFIX ?? '';

http
  .createServer((req, res) => {
    const path = prefix && req.url.startsWith(prefix) ? req.url.slice(prefix.length) : req.url;
    const upstream = http.request(
      { host: target.hostname, port: target.port, method: req.method, path, headers: req.headers, agent },
      (answer) => {
        res.writeHead(answer.statusCode, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  })
  .listen(Number(process.env.PIPE_PORT), '127.0.0.1');
