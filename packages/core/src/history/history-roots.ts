import { sqlText, type SqlText } from '../persistence/sql-text.js';

/**
 * The root process instance of an instance's history rows, read inside the insert (no round trip):
 * the historic process instance knows it; an instance whose row is not written yet is its own root.
 */
export function historicRootOf(processInstanceId: string | null): SqlText<string | null> | null {
  if (processInstanceId === null) return null;
  return sqlText<string | null>`coalesce((select r.root_proc_inst_id from trellis_hi_procinst r where r.id = ${processInstanceId}), ${processInstanceId})`;
}
