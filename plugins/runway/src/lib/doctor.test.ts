import type { DoctorCheck } from '@runway-portal/plugin-runway-common';
import { doctorChipView, doctorRows } from './doctor';

const check = (id: string, status: DoctorCheck['status']): DoctorCheck => ({
  id,
  status,
  message: id,
});
const report = (checks: DoctorCheck[]) => ({
  cluster: 'east',
  checkedAt: '2026-11-26T00:00:00Z',
  problems: 0,
  checks,
});

describe('the doctor on a cluster card', () => {
  it('counts fail and warn, coloured by the worst; not-checked is no problem', () => {
    expect(
      doctorChipView(
        report([
          check('a', 'warn'),
          check('b', 'fail'),
          check('c', 'not-checked'),
        ]),
      ),
    ).toEqual({ label: '2 problems', color: 'error' });
    expect(doctorChipView(report([check('a', 'warn')]))).toEqual({
      label: '1 problem',
      color: 'warning',
    });
    expect(
      doctorChipView(report([check('a', 'ok'), check('b', 'not-checked')])),
    ).toEqual({ label: 'no problems', color: 'success' });
  });

  it('shows the last report of a cluster that does not answer as last known, uncoloured', () => {
    expect(doctorChipView(report([check('a', 'ok')]), true)).toEqual({
      label: 'no problems (last known)',
      color: 'default',
    });
    expect(doctorChipView(report([check('a', 'fail')]), true)).toEqual({
      label: '1 problem (last known)',
      color: 'default',
    });
  });

  it('lists problems first, then what was not checked, then ok', () => {
    expect(
      doctorRows([
        check('ok1', 'ok'),
        check('n', 'not-checked'),
        check('w', 'warn'),
        check('f', 'fail'),
      ]).map(r => [r.id, r.label]),
    ).toEqual([
      ['f', 'FAIL'],
      ['w', 'WARN'],
      ['n', 'not checked'],
      ['ok1', 'ok'],
    ]);
  });
});
