import { useEffect, useState } from 'react';
import { fetchCheckinStaff } from '../../api';

/** The estate's departments, for the filters (empty until loaded). */
export function useDepartments(): { departmentId: number; name: string }[] {
  const [departments, setDepartments] = useState<{ departmentId: number; name: string }[]>([]);
  useEffect(() => {
    const abort = new AbortController();
    fetchCheckinStaff(abort.signal).then(
      (d) => setDepartments(d.departments),
      () => undefined,
    );
    return () => abort.abort();
  }, []);
  return departments;
}
