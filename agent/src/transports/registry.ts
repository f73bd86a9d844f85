import { PrintwireError } from '@printwire/shared/errors/index';
import type { PrinterTarget } from '../config/printer-uri.js';
import type { Transport, TransportFactory, TransportOptions } from './transport.js';

/** Maps a URI scheme (`tcp`, `serial`, `usb`, `system`) to the factory of its transport. */
export class TransportRegistry {
  readonly #factories = new Map<PrinterTarget['connection'], TransportFactory>();

  register(connection: PrinterTarget['connection'], factory: TransportFactory): this {
    this.#factories.set(connection, factory);
    return this;
  }

  has(connection: PrinterTarget['connection']): boolean {
    return this.#factories.has(connection);
  }

  /** Throws UNSUPPORTED_JOB when no transport handles the printer's connection yet. */
  create(target: PrinterTarget, options: TransportOptions = {}): Transport {
    const factory = this.#factories.get(target.connection);
    if (!factory) {
      throw new PrintwireError(
        'UNSUPPORTED_JOB',
        `this agent has no ${target.connection} driver yet`,
      );
    }
    return factory(target, options);
  }
}
