import { WORK_KINDS } from '../utils/workKinds';
import { WorkOrderPage } from './WorkOrderPage';

/** /complaints-suggestions/index */
export default function ComplaintsPage() {
  return <WorkOrderPage kind={WORK_KINDS.complaint} />;
}
