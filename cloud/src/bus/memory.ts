/** In-process event bus: the default for a single instance. */
import { EventEmitter } from 'node:events';
import type { BusEvent, EventBus } from './events.js';

export class MemoryBus implements EventBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  async publish(event: BusEvent): Promise<void> {
    this.emitter.emit('event', event);
  }

  async subscribe(handler: (event: BusEvent) => void): Promise<() => Promise<void>> {
    this.emitter.on('event', handler);
    return async () => {
      this.emitter.off('event', handler);
    };
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}
