import {
  auditClean,
  auditUpstream,
  isReconciled,
  leaderTerms,
  type ModelDeploymentState,
  overlappingTerms,
  sameDeployments,
} from './faults';

const md = (
  name: string,
  uid: string,
  extra: Partial<ModelDeploymentState['metadata']> = {},
): ModelDeploymentState => ({ metadata: { name, uid, ...extra } });

describe('auditUpstream', () => {
  const kind = () => 'Workspace';

  it('is clean with exactly one object of the expected kind per deployment', () => {
    const audit = auditUpstream(
      [md('md-0', 'a'), md('md-1', 'b')],
      [
        { kind: 'Workspace', name: 'md-0', ownerUid: 'a' },
        { kind: 'Workspace', name: 'md-1', ownerUid: 'b' },
        { kind: 'InferencePool', name: 'md-1', ownerUid: 'b' }, // another kind
      ],
      kind,
    );
    expect(audit).toEqual({ missing: [], duplicated: [], orphans: [] });
    expect(auditClean(audit)).toBe(true);
  });

  it('names missing, duplicated and orphaned objects', () => {
    const audit = auditUpstream(
      [md('md-0', 'a'), md('md-1', 'b'), md('md-2', 'c')],
      [
        { kind: 'Workspace', name: 'md-1', ownerUid: 'b' },
        { kind: 'Workspace', name: 'md-1-again', ownerUid: 'b' },
        { kind: 'InferencePool', name: 'md-2', ownerUid: 'c' }, // wrong kind
        { kind: 'Workspace', name: 'md-9', ownerUid: 'gone' },
        { kind: 'Workspace', name: 'by-hand' }, // no owner: not ours to judge
      ],
      kind,
    );
    expect(audit).toEqual({
      missing: ['md-0 (Workspace)', 'md-2 (Workspace)'],
      duplicated: ['md-1: 2 Workspace'],
      orphans: ['Workspace md-9'],
    });
    expect(auditClean(audit)).toBe(false);
  });

  it('expects nothing of a deployment being deleted', () => {
    const audit = auditUpstream(
      [md('md-0', 'a', { deletionTimestamp: '2026-11-26T00:00:00Z' })],
      [],
      kind,
    );
    expect(auditClean(audit)).toBe(true);
  });
});

describe('isReconciled', () => {
  const at = (generation: number, status: ModelDeploymentState['status']) => ({
    metadata: { name: 'md-0', generation },
    status,
  });
  const created = (observedGeneration: number) => ({
    type: 'ResourceCreated',
    status: 'True',
    observedGeneration,
  });

  it('needs the core and the provider at the current generation', () => {
    expect(
      isReconciled(at(2, { observedGeneration: 2, conditions: [created(2)] })),
    ).toBe(true);
    expect(
      isReconciled(at(2, { observedGeneration: 1, conditions: [created(1)] })),
    ).toBe(false);
    expect(
      isReconciled(at(2, { observedGeneration: 2, conditions: [created(1)] })),
    ).toBe(false);
    expect(isReconciled(at(2, { observedGeneration: 2 }))).toBe(false);
  });
});

describe('leader terms', () => {
  const line = (ts: string, msg: string) =>
    JSON.stringify({ level: 'info', ts, msg });
  const t = (s: string) => Date.parse(`2026-11-26T05:00:${s}Z`);

  it('reads terms from a log, ending an open one at a SIGKILL or at the next process start', () => {
    const log = [
      line('2026-11-26T05:00:00Z', 'waiting for the leader lease'),
      line('2026-11-26T05:00:01Z', 'became leader'),
      // SIGKILL at :05, the restarted process starts at :06
      line('2026-11-26T05:00:06Z', 'waiting for the leader lease'),
      line('2026-11-26T05:00:20Z', 'became leader'),
      '{"level":"info","ts":"2026-11-26T05:00:21Z","msg":"cut by SIG',
      line('2026-11-26T05:00:30Z', 'stopped leading'),
      line('2026-11-26T05:00:40Z', 'became leader'),
    ].join('\n');
    expect(leaderTerms('a', log, [t('05')])).toEqual([
      { replica: 'a', from: t('01'), to: t('05') },
      { replica: 'a', from: t('20'), to: t('30') },
      { replica: 'a', from: t('40'), to: Infinity },
    ]);
    // Without the kill, the restarted process's start ends the term.
    expect(leaderTerms('a', log)[0]).toEqual({
      replica: 'a',
      from: t('01'),
      to: t('06'),
    });
  });

  it('finds terms of different replicas that overlap, and only those', () => {
    const terms = [
      { replica: 'a', from: t('01'), to: t('05') },
      { replica: 'b', from: t('05'), to: t('10') }, // right after: fine
      { replica: 'c', from: t('09'), to: Infinity },
    ];
    const overlaps = overlappingTerms(terms);
    expect(overlaps).toHaveLength(1);
    expect(overlaps[0]).toMatch(/^b \[.*\) ∩ c \[.*, now\)$/);
  });
});

describe('sameDeployments', () => {
  const at = (name: string, generation: number, observed?: number) => ({
    metadata: { name, generation },
    status: { observedGeneration: observed },
  });

  it('compares names and generations, in any order', () => {
    expect(
      sameDeployments(
        [at('a', 1, 1), at('b', 2, 2)],
        [at('b', 2, 2), at('a', 1, 1)],
      ),
    ).toBe(true);
    expect(sameDeployments([at('a', 2, 2)], [at('a', 2, 1)])).toBe(false);
    expect(sameDeployments([at('a', 1, 1)], [])).toBe(false);
  });
});
