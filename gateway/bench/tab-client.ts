// A console tab for the gateway bench, as cheap as a tab can be (README "Part 30"): one `ws` WebSocket
// speaking socket.io's wire protocol (engine.io v4, socket.io v5) itself, where socket.io-client's
// layers (engine socket, transport, manager, parser, emitters) cost the bench's tab processes about
// 37 µs of CPU a delivery (22–25 µs this way) on the same two cores as the gateways. What the gateway
// sees is what the console's socket.io-client sends: the WebSocket upgrade, CONNECT with `{ token }` (and `pid` / `offset`
// once it has a session, so a tab that drops for a moment recovers what it missed), pongs, the
// `subscribe` with an ack. The reconnects follow socket.io-client's manager with the console's
// options (liveSocket.ts): a first pause drawn anew at every loss, doubling to RECONNECT_MAX_MS ± 50 %,
// 20 s for an attempt; a refusal (`connect_error` with a code) is the caller's to retry, as the
// console's is. An event is not decoded: a delivery's latency is read from the frame's `sentAt`.
import WebSocket from 'ws';
import { firstReconnectPause, RECONNECT_MAX_MS } from '@pm/shared';

/** socket.io-client's connection timeout (its manager's `timeout`). */
const OPEN_TIMEOUT_MS = 20_000;

export interface TabHandlers {
  /** An event `name`'s frame arrived (the raw text: `42["name",…]`). */
  onEvent(name: string, frame: string): void;
  onConnect(): void;
  /** The connection was lost (by the transport or the server), as socket.io-client's `disconnect`. */
  onDisconnect(): void;
  /** As socket.io-client's `connect_error`: `data` from the server's refusal, none for a transport failure. */
  onConnectError(data: { code?: number; retryAfter?: number } | undefined): void;
}

/** The `sentAt` number in an event's frame, without parsing the frame (0: none). */
export function sentAtOf(frame: string): number {
  const at = frame.indexOf('"sentAt":');
  if (at < 0) return 0;
  return parseFloat(frame.slice(at + 9, at + 40));
}

/** The recovery offset an event frame ends with (`…,"<offset>"]`), as socket.io-client keeps it. */
export function offsetOf(frame: string): string | undefined {
  if (!frame.endsWith('"]')) return undefined;
  const start = frame.lastIndexOf(',"', frame.length - 3);
  if (start < 0) return undefined;
  const offset = frame.slice(start + 2, frame.length - 2);
  return offset.includes('"') ? undefined : offset;
}

/** The event's name in a `42["name",…]` frame (also `42<ackId>[…]` is not an event from the server). */
function eventName(frame: string): string {
  if (frame.charCodeAt(2) !== 91 /* [ */) return '';
  const end = frame.indexOf('"', 4);
  return end > 0 ? frame.slice(4, end) : '';
}

export class TabClient {
  connected = false;
  private ws: WebSocket | null = null;
  private pid: string | undefined;
  private offset: string | undefined;
  private attempts = 0;
  private firstPause: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private openTimer: NodeJS.Timeout | undefined;
  private closedByUs = false;
  private nextAck = 0;
  lastPingAt = 0;
  pingDeadlineMs = 45_000;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly localAddress: string | undefined,
    private readonly handlers: TabHandlers,
    /** The first pause after a loss (the console's; a test's shorter). */
    private readonly reconnectPause: () => number = firstReconnectPause,
  ) {
    this.firstPause = reconnectPause();
  }

  /** Opens the connection (again), as socket.io-client's `socket.connect()`. */
  connect(): void {
    if (this.ws) return;
    clearTimeout(this.reconnectTimer);
    this.closedByUs = false;
    this.lastPingAt = 0; // counted from the engine's open
    const wsUrl = `${this.url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;
    // The frames are the gateway's own JSON: their UTF-8 check is the browser's work, not the gateway's.
    const ws = new WebSocket(wsUrl, {
      localAddress: this.localAddress,
      perMessageDeflate: false,
      skipUTF8Validation: true,
    });
    this.ws = ws;
    let opened = false;
    this.openTimer = setTimeout(() => fail(), OPEN_TIMEOUT_MS);
    const fail = () => {
      if (this.ws !== ws) return;
      this.drop(ws);
      this.handlers.onConnectError(undefined);
      this.scheduleReconnect();
    };
    ws.on('error', () => (opened ? this.lost(ws) : fail()));
    ws.on('close', () => (opened ? this.lost(ws) : fail()));
    ws.on('message', (data) => {
      const frame = data.toString();
      const type = frame.charCodeAt(0);
      if (type === 52 /* 4: a socket.io packet */) this.onPacket(ws, frame);
      else if (type === 50 /* 2: ping */) {
        this.lastPingAt = Date.now();
        ws.send('3');
      } else if (type === 48 /* 0: engine open */) {
        opened = true;
        clearTimeout(this.openTimer);
        this.lastPingAt = Date.now();
        const open = JSON.parse(frame.slice(1)) as { pingInterval: number; pingTimeout: number };
        this.pingDeadlineMs = open.pingInterval + open.pingTimeout;
        this.attempts = 0;
        const auth = this.pid ? { pid: this.pid, offset: this.offset, token: this.token } : { token: this.token };
        ws.send(`40${JSON.stringify(auth)}`);
      } else if (type === 49 /* 1: engine close */) this.lost(ws);
    });
  }

  /** The connection's own end (`address:port`), as a balancer in front sees it; '' when not open. */
  localEnd(): string {
    const socket = (this.ws as unknown as { _socket?: { localAddress?: string; localPort?: number } } | null)?._socket;
    return socket?.localPort ? `${socket.localAddress}:${socket.localPort}` : '';
  }

  /** Emits `name` with `args` and an ack (its answer is not read). */
  emit(name: string, ...args: unknown[]): void {
    this.ws?.send(`42${this.nextAck++}${JSON.stringify([name, ...args])}`);
  }

  /** Closes for good (socket.io-client's `disconnect()`). */
  disconnect(): void {
    this.closedByUs = true;
    clearTimeout(this.reconnectTimer);
    const ws = this.ws;
    if (ws?.readyState === WebSocket.OPEN) ws.send('41');
    if (ws) this.drop(ws);
    if (this.connected) {
      this.connected = false;
      this.handlers.onDisconnect();
    }
  }

  /** Loses the transport as a network cut does; without `reconnect` it stays away until `connect()`. */
  cut(reconnect = true): void {
    if (!this.ws) return;
    this.closedByUs = !reconnect;
    this.lost(this.ws);
  }

  /** No ping for longer than the server's interval and timeout: the transport is gone (engine.io-client's rule). */
  checkPing(now: number): void {
    if (this.ws && this.lastPingAt && now - this.lastPingAt > this.pingDeadlineMs) this.lost(this.ws);
  }

  private onPacket(ws: WebSocket, frame: string): void {
    const kind = frame.charCodeAt(1);
    if (kind === 50 /* 2: event */) {
      const offset = this.pid ? offsetOf(frame) : undefined;
      if (offset) this.offset = offset;
      this.handlers.onEvent(eventName(frame), frame);
    } else if (kind === 48 /* 0: connected */) {
      const answer = JSON.parse(frame.slice(2)) as { sid: string; pid?: string };
      if (answer.pid !== this.pid) this.offset = undefined;
      this.pid = answer.pid;
      this.connected = true;
      this.handlers.onConnect();
    } else if (kind === 52 /* 4: connect_error */) {
      // socket.io-client closes the connection and leaves the retry to the page.
      const error = JSON.parse(frame.slice(2)) as { data?: { code?: number; retryAfter?: number } };
      this.closedByUs = true;
      this.drop(ws);
      this.handlers.onConnectError(error.data ?? {});
    } else if (kind === 49 /* 1: the server disconnected the tab: no reconnect, as socket.io-client */) {
      this.closedByUs = true;
      this.lost(ws);
    }
  }

  private lost(ws: WebSocket): void {
    if (this.ws !== ws) return;
    this.drop(ws);
    if (this.connected) {
      this.connected = false;
      this.handlers.onDisconnect();
    }
    if (this.closedByUs) return;
    // The console draws its first pause anew at every loss (liveSocket.ts, on the manager's `close`).
    this.firstPause = this.reconnectPause();
    this.attempts = 0;
    this.scheduleReconnect();
  }

  private drop(ws: WebSocket): void {
    clearTimeout(this.openTimer);
    if (this.ws === ws) this.ws = null;
    ws.removeAllListeners('message');
    ws.on('error', () => undefined);
    ws.terminate();
  }

  /** socket.io-client's backoff: the pause doubles at each attempt, ± 50 %, capped after the randomness. */
  private scheduleReconnect(): void {
    if (this.closedByUs) return;
    let ms = this.firstPause * 2 ** this.attempts++;
    const rand = Math.random();
    const deviation = Math.floor(rand * 0.5 * ms);
    ms = (Math.floor(rand * 10) & 1) === 0 ? ms - deviation : ms + deviation;
    this.reconnectTimer = setTimeout(() => this.connect(), Math.min(ms, RECONNECT_MAX_MS) | 0);
  }
}
