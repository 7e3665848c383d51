import { COMPLAINT_SCREEN } from '../utils/workKinds';
import { WorkOrderPage } from './WorkOrderPage';

/** /complaints-suggestions/index */
export default function ComplaintsPage() {
  return <WorkOrderPage screen={COMPLAINT_SCREEN} />;
}
