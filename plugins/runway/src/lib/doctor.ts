/** How the doctor's checks show on a cluster card. Pure. */
import {
  doctorProblems,
  type DoctorCheck,
  type DoctorReport,
} from '@runway-portal/plugin-runway-common';

export interface DoctorChipView {
  label: string;
  /** By the worst check: error (a check fails), warning (only warnings), success; default when stale. */
  color: 'error' | 'warning' | 'success' | 'default';
}

/**
 * The chip of a cluster's last report. While the cluster does not answer,
 * that report is old news: it is labelled "last known" and not coloured,
 * never shown as a current verdict.
 */
export function doctorChipView(
  report: DoctorReport,
  stale = false,
): DoctorChipView {
  const problems = doctorProblems(report.checks);
  const n = problems.length;
  const label = n === 0 ? 'no problems' : `${n} problem${n === 1 ? '' : 's'}`;
  if (stale) return { label: `${label} (last known)`, color: 'default' };
  if (n === 0) return { label, color: 'success' };
  return { label, color: problems[0].status === 'fail' ? 'error' : 'warning' };
}

const LABEL: Record<DoctorCheck['status'], string> = {
  fail: 'FAIL',
  warn: 'WARN',
  ok: 'ok',
  'not-checked': 'not checked',
};

/** The dialog's rows: problems first (fail, warn), then what was not checked, then ok. */
export function doctorRows(
  checks: readonly DoctorCheck[],
): Array<DoctorCheck & { label: string }> {
  const order: DoctorCheck['status'][] = ['fail', 'warn', 'not-checked', 'ok'];
  return order.flatMap(status =>
    checks
      .filter(c => c.status === status)
      .map(c => ({ ...c, label: LABEL[c.status] })),
  );
}
