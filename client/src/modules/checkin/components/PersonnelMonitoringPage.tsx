import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, type BoardState } from '@pm/shared';
import { fetchCheckinBoard, type CheckinBoard } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { formatTime } from '../../ui/utils/formatTime';
import '../checkin.css';

/** The board's columns: who needs attention first. */
const SHOWN: BoardState[] = ['late', 'notYetIn', 'absent', 'outOfPlace', 'leftEarly', 'onDuty', 'offDuty'];

/**
 * /check-in/personnel-monitoring (issue 32): the duty board of today, one column per state, large
 * enough for a wall screen. A punch anywhere reloads it through the `checkin` live topic.
 */
export default function PersonnelMonitoringPage() {
  const { t } = useTranslation();
  const [board, setBoard] = useState<CheckinBoard | null>(null);
  const [version, setVersion] = useState(0);
  useLiveEvent((e) => {
    if (e.topic === 'checkin') setVersion((v) => v + 1);
  });
  useEffect(() => {
    const abort = new AbortController();
    fetchCheckinBoard(abort.signal).then(setBoard, () => undefined);
    return () => abort.abort();
  }, [version]);

  const clock = (iso: string | null) => (iso ? formatTime(iso).slice(11) : '');
  return (
    <div className="checkin-board" data-testid="checkin-board">
      <p className="checkin-board-day">{board ? t('checkin.board.today', { day: board.day }) : t('common.loading')}</p>
      <div className="checkin-board-totals" role="status" aria-live="polite">
        {BOARD_STATES.map((s) => (
          <span key={s} className={`checkin-total checkin-${s}`} data-testid={`total-${s}`}>
            {t(`checkin.board.states.${s}`)}: <strong>{board?.totals[s] ?? '–'}</strong>
          </span>
        ))}
      </div>
      <div className="checkin-board-columns">
        {SHOWN.map((s) => {
          const rows = board?.rows.filter((r) => r.state === s) ?? [];
          return (
            <section key={s} className={`checkin-column checkin-${s}`} aria-labelledby={`board-${s}`}>
              <h2 id={`board-${s}`}>
                {t(`checkin.board.states.${s}`)} ({rows.length})
              </h2>
              <ul data-testid={`board-${s}`}>
                {rows.map((r) => (
                  <li key={r.personId} data-testid={`board-person-${r.personId}`}>
                    <span className="checkin-name">{r.personName}</span>
                    <span className="checkin-detail">
                      {[
                        r.departmentName,
                        r.startAt && t('checkin.board.shift', { start: clock(r.startAt), end: clock(r.endAt) }),
                        r.lateMinutes > 0 && t('checkin.board.lateBy', { count: r.lateMinutes }),
                        r.inAt && t('checkin.board.inAt', { time: clock(r.inAt) }),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </span>
                  </li>
                ))}
                {rows.length === 0 && <li className="checkin-none">{t('checkin.board.nobody')}</li>}
              </ul>
            </section>
          );
        })}
      </div>
    </div>
  );
}
