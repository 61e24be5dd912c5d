/** How the doctor's checks show on a cluster card. Pure. */
import {
  doctorProblems,
  type DoctorCheck,
  type DoctorReport,
} from '@runway-portal/plugin-runway-common';

export interface DoctorChipView {
  label: string;
  /** By the worst check: error (a check fails), warning (only warnings), success. */
  color: 'error' | 'warning' | 'success';
}

export function doctorChipView(report: DoctorReport): DoctorChipView {
  const problems = doctorProblems(report.checks);
  const n = problems.length;
  if (n === 0) return { label: 'no problems', color: 'success' };
  return {
    label: `${n} problem${n === 1 ? '' : 's'}`,
    color: problems[0].status === 'fail' ? 'error' : 'warning',
  };
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
