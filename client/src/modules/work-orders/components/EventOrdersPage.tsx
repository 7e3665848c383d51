import { EVENT_ORDER_SCREEN } from '../utils/workKinds';
import { WorkOrderPage } from './WorkOrderPage';

/** /event-work-order/index */
export default function EventOrdersPage() {
  return <WorkOrderPage screen={EVENT_ORDER_SCREEN} />;
}
