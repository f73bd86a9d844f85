/**
 * Redis event bus (ioredis, publish/subscribe), required when more than one instance serves the
 * API: events published on one instance reach subscribers on all.
 */
import { Redis } from 'ioredis';
import type { BusEvent, EventBus } from './events.js';

export interface RedisBusOptions {
  /** Key prefix, so several deployments can share one Redis. Default `printwire:`. */
  prefix?: string;
}

export class RedisBus implements EventBus {
  private subscriber: Redis | undefined;
  private subscribed: Promise<unknown> | undefined;
  private readonly handlers = new Set<(event: BusEvent) => void>();
  private readonly channel: string;

  constructor(
    private readonly redis: Redis,
    options: RedisBusOptions = {},
  ) {
    this.channel = `${options.prefix ?? 'printwire:'}events`;
  }

  static connect(url: string, options: RedisBusOptions = {}): RedisBus {
    return new RedisBus(new Redis(url, { maxRetriesPerRequest: 2 }), options);
  }

  async publish(event: BusEvent): Promise<void> {
    await this.redis.publish(this.channel, JSON.stringify(event));
  }

  async subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>> {
    if (!this.subscriber) {
      this.subscriber = this.redis.duplicate();
      this.subscriber.on('message', (_channel: string, message: string) => {
        let event: BusEvent;
        try {
          event = JSON.parse(message) as BusEvent;
        } catch {
          return;
        }
        for (const h of this.handlers) h(event);
      });
      this.subscribed = this.subscriber.subscribe(this.channel);
    }
    this.handlers.add(handler);
    await this.subscribed;
    return async () => {
      this.handlers.delete(handler);
    };
  }

  async close(): Promise<void> {
    await this.subscriber?.quit().catch(() => this.subscriber?.disconnect());
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
