import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { session } from '../../auth/states/session';
import { WORK_KINDS } from '../../work-orders/utils/workKinds';
import { AnnouncementsWidget } from './AnnouncementsWidget';
import { JoinRequestsWidget } from './JoinRequestsWidget';
import { OwnerChangesWidget } from './OwnerChangesWidget';
import { SosWidget } from './SosWidget';
import { WarningsWidget } from './WarningsWidget';
import { WorkWidget } from './WorkWidget';
import './dashboard-widgets.css';

const HOUSE_LISTS = ['unit:list', 'carpark:list', 'shop:list'];

/**
 * Every widget of SPEC §1 the person may see; a widget of an area they may not list is absent
 * (not empty). The relative times are redrawn every half minute; the rows themselves only move
 * with the gateway's live events.
 */
export function DashboardWidgets() {
  const { perms } = useSnapshot(session);
  const may = (p: string) => perms.includes(p);
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 30_000);
    return () => clearInterval(timer);
  }, []);
  const houses = HOUSE_LISTS.some(may);
  return (
    <div className="dash-widgets" data-testid="dashboard-widgets">
      {Object.values(WORK_KINDS).map((k) => may(k.perms.list) && <WorkWidget key={k.kind} kind={k} />)}
      {may('disasterwarn:list') && <SosWidget />}
      {may('disasterwarn:list') && <WarningsWidget />}
      {may('bulletin:list') && <AnnouncementsWidget />}
      {houses && <JoinRequestsWidget />}
      {houses && <OwnerChangesWidget />}
    </div>
  );
}
