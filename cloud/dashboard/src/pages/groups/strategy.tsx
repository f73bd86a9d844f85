/** A group's strategy in a word, with the sentence that says what it does. */
import { useTranslation } from 'react-i18next';
import type { Strategy } from './data';

export function useStrategyWords(): Record<Strategy, { name: string; what: string }> {
  const { t } = useTranslation();
  return {
    failover: { name: t('groups.failover'), what: t('groups.failoverWhat') },
    'round-robin': { name: t('groups.roundRobin'), what: t('groups.roundRobinWhat') },
  };
}

export function StrategyWords({ strategy }: { strategy: Strategy }) {
  const words = useStrategyWords()[strategy];
  return (
    <div>
      <span>{words?.name ?? strategy}</span>
      {words && <span className="hint block">{words.what}</span>}
    </div>
  );
}
