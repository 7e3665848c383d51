// Placeholder entry: answers /health only. Replaced by the api core (issue 3).
import { createServer } from 'node:http';

const port = Number(process.env.API_PORT ?? 3000);
const server = createServer((req, res) => {
  res.setHeader('content-type', 'application/json');
  if (req.url === '/health') res.end(JSON.stringify({ code: 200, msg: 'ok', data: { status: 'up' } }));
  else {
    res.statusCode = 404;
    res.end(JSON.stringify({ code: 404, msg: 'No such route', data: null }));
  }
});
server.listen(port, () => console.log(JSON.stringify({ level: 30, msg: `api listening on ${port}` })));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
