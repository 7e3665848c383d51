import type { BusEnvelope, EventBus } from '../modules/realtime/event-bus';
import type { ApiMetrics } from './api-metrics';

/** Milliseconds since the epoch, with a fraction (comparable between processes of one machine). */
const clock = () => performance.timeOrigin + performance.now();

/**
 * The real-time bus with push latency measured: each push envelope carries the time it was
 * published (`sentAt`, an extra field the bus passes along, through NOTIFY too), and each
 * instance observes, after handing it to its open sockets, how long that took.
 */
export function measuredBus(bus: EventBus, metrics: ApiMetrics): EventBus {
  return {
    publish: (envelope) => {
      const stamped: BusEnvelope & { sentAt?: number } = envelope.kind === 'push' ? { ...envelope } : envelope;
      if (envelope.kind === 'push') stamped.sentAt = clock();
      return bus.publish(stamped);
    },
    onEnvelope: (handler) =>
      bus.onEnvelope((envelope: BusEnvelope & { sentAt?: number }) => {
        handler(envelope);
        if (envelope.kind === 'push' && typeof envelope.sentAt === 'number')
          metrics.pushLatency.observe(Math.max(0, clock() - envelope.sentAt) / 1000);
      }),
    close: () => bus.close(),
  };
}
