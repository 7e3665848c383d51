import { WORK_KINDS } from '../utils/workKinds';
import { WorkOrderPage } from './WorkOrderPage';

/** /event-work-order/index */
export default function EventOrdersPage() {
  return <WorkOrderPage kind={WORK_KINDS.eventOrder} />;
}
