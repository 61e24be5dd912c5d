/**
 * The doctor's answer (part of the REST contract; see contract.ts): the
 * checks `runway doctor` runs (packages/cli, `@runway-portal/cli/doctor`),
 * run by the portal's backend per cluster in the background. The CLI's
 * `Check` is this `DoctorCheck`: one shape for both.
 */
import { type Static, Type } from '@sinclair/typebox';
import { StringEnum } from '../schema/kinds';

const closed = { additionalProperties: false } as const;

/** @public */
export const DoctorCheckStatusValues = [
  'ok',
  'warn',
  'fail',
  'not-checked',
] as const;
/** `not-checked`: the identity that ran the checks may not read what they need (the message names it). @public */
export type DoctorCheckStatus = (typeof DoctorCheckStatusValues)[number];

/** @public */
export const DoctorCheckSchema = Type.Object(
  {
    id: Type.String({
      description:
        'Stable id, e.g. crd/modeldeployments.airunway.ai, controller/core, provider/kaito/heartbeat; `<area>/*` for a part that was not checked.',
    }),
    status: StringEnum(DoctorCheckStatusValues, {
      description:
        'ok; warn (an optional part is missing); fail; not-checked (the portal may not read it: the message says which permission it needs).',
    }),
    message: Type.String(),
    fix: Type.Optional(
      Type.String({
        description:
          'How to fix it (a command when there is one); for not-checked, the permission to grant.',
      }),
    ),
  },
  { $id: 'DoctorCheck', ...closed },
);
/** One check of `runway doctor`. @public */
export type DoctorCheck = Static<typeof DoctorCheckSchema>;

/** @public */
export const DoctorReportSchema = Type.Object(
  {
    cluster: Type.String(),
    checkedAt: Type.Union([Type.String(), Type.Null()], {
      description:
        'When the last run finished (ISO 8601); null before the first run ended.',
    }),
    durationMs: Type.Optional(
      Type.Number({ description: 'How long the last run took.' }),
    ),
    problems: Type.Number({
      description: 'Checks that fail or warn, in the last run.',
    }),
    error: Type.Optional(
      Type.String({
        description:
          'Why the last run could not read the cluster (then `checks` are those of the run before, if any).',
      }),
    ),
    checks: Type.Array(DoctorCheckSchema, {
      description: 'In the order `runway doctor` prints them.',
    }),
  },
  { $id: 'DoctorReport', ...closed },
);
/** A cluster's doctor checks, as the backend last ran them. @public */
export type DoctorReport = Static<typeof DoctorReportSchema>;

/** The checks that need someone's attention (fail, then warn), in order. Pure. @public */
export function doctorProblems(checks: readonly DoctorCheck[]): DoctorCheck[] {
  return [
    ...checks.filter(c => c.status === 'fail'),
    ...checks.filter(c => c.status === 'warn'),
  ];
}

/**
 * The fix to show for a cluster without Runway: the first failing check's
 * (the CRDs come first, so it is the install command), else undefined. Pure.
 *
 * @public
 */
export function doctorInstallFix(
  report: DoctorReport | undefined,
): string | undefined {
  return report?.checks.find(c => c.status === 'fail' && c.fix)?.fix;
}
