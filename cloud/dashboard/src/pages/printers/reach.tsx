/**
 * How a printer is reached, in words (DESIGN.md "A printer says how it is reached"): its network
 * address and port, USB ids and serial number, serial port, the computer's queue, or CloudPRNT /
 * Server Direct Print with its last poll. What tells two printers of one model apart.
 */
import { useTranslation } from 'react-i18next';
import { formatDate, formatRelative } from '../../i18n';
import type { Printer } from './data';

/** `printers.reach.*` says each way; the values go in `<code>` so that they can be read out and copied. */
export function PrinterReach({ printer }: { printer: Printer }) {
  const { t } = useTranslation();
  const reach = printer.reach;
  if (!reach) {
    return <>{printer.sandbox ? t('printers.reach.sandbox') : t('printers.reach.unknown')}</>;
  }
  switch (reach.via) {
    case 'tcp':
      return (
        <>
          {t('printers.reach.tcp')} <code>{reach.host}</code>
          {', '}
          {t('printers.reach.port', { port: reach.port })}
        </>
      );
    case 'usb':
      return (
        <>
          {t('printers.reach.usb')} <code>{`${reach.vendorId}:${reach.productId}`}</code>
          {', '}
          {reach.serial === null ? (
            t('printers.reach.noSerial')
          ) : (
            <>
              {t('printers.reach.serialNumber')} <code>{reach.serial}</code>
            </>
          )}
        </>
      );
    case 'serial':
      return (
        <>
          {t('printers.reach.serialPort')} <code>{reach.path}</code>
          {', '}
          {t('printers.reach.baud', { baud: reach.baud })}
        </>
      );
    case 'system':
      return (
        <>
          {t('printers.reach.system')} <code>{reach.queue}</code>
        </>
      );
    case 'cloudprnt':
    case 'sdp':
      return (
        <>
          {t(`printers.reach.${reach.via}`)}
          {', '}
          {reach.lastPollAt ? (
            <>
              {t('printers.reach.lastPoll')}{' '}
              <time dateTime={reach.lastPollAt} title={formatDate(reach.lastPollAt, true)}>
                {formatRelative(reach.lastPollAt)}
              </time>
            </>
          ) : (
            t('printers.reach.neverPolled')
          )}
        </>
      );
  }
}

/** A printer that polls the cloud itself (no agent, no computer). */
export const pollsByItself = (printer: Printer): boolean =>
  printer.connection === 'cloudprnt' || printer.connection === 'sdp';
