import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, type BoardState, type CheckinBoardRow } from '@pm/shared';
import { fetchCheckinBoard, type CheckinBoard } from '../../api';
import { useLiveEvent } from '../../live/hooks/useLiveEvent';
import { formatTime } from '../../ui/utils/formatTime';
import '../checkin.css';

/** The board's columns: who needs attention first. */
const SHOWN: BoardState[] = ['late', 'notYetIn', 'absent', 'outOfPlace', 'leftEarly', 'onDuty', 'offDuty'];

/** The board with one person's row replaced (null: taken off), its totals counted again. */
function withRow(board: CheckinBoard, personId: number | undefined, row: CheckinBoardRow | null): CheckinBoard {
  const id = row?.personId ?? personId;
  const at = board.rows.findIndex((r) => r.personId === id);
  const rows = board.rows.slice();
  if (row && at >= 0) rows[at] = row;
  else if (row) rows.push(row);
  else if (at >= 0) rows.splice(at, 1);
  const totals = Object.fromEntries(BOARD_STATES.map((s) => [s, 0])) as Record<BoardState, number>;
  for (const r of rows) totals[r.state]++;
  return { ...board, rows, totals };
}

/**
 * /check-in/personnel-monitoring (issue 32): the duty board of today, one column per state, large
 * enough for a wall screen. A punch moves its person through the `checkin` live topic (the event
 * carries the person's new row); an event without one (a refused make-up changes nothing) or of
 * another day reloads it.
 */
export default function PersonnelMonitoringPage() {
  const { t } = useTranslation();
  const [board, setBoard] = useState<CheckinBoard | null>(null);
  const [version, setVersion] = useState(0);
  useLiveEvent((e) => {
    if (e.topic !== 'checkin') return;
    const { day, row } = e.payload;
    // The event carries the person's new row: moved in place, no reload of the whole board.
    if (row !== undefined && board && day === board.day) setBoard((b) => (b ? withRow(b, e.payload.personId, row) : b));
    else if (row !== undefined || e.payload.action !== 'makeup') setVersion((v) => v + 1);
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
