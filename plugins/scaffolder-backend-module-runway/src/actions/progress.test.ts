import {
  describeProgress,
  failureMessage,
  progressOf,
  targetPhaseOf,
  verdictOf,
} from './progress';

const withStatus = (status: unknown) => ({ status });

describe('runway:wait progress', () => {
  it('defaults the target phase per kind and refuses phases the kind does not have', () => {
    expect(targetPhaseOf('deployments', undefined)).toBe('Running');
    expect(targetPhaseOf('models', '')).toBe('Ready');
    expect(targetPhaseOf('stacks', undefined)).toBe('Ready');
    expect(targetPhaseOf('deployments', 'Deploying')).toBe('Deploying');
    expect(() => targetPhaseOf('models', 'Running')).toThrow(
      'input.phase "Running" is not a phase models reach: use one of Pending, Downloading, Ready',
    );
    expect(() => targetPhaseOf('deployments', 'Failed')).toThrow(
      /input\.phase "Failed"/,
    );
  });

  it('reads phase, message and conditions, tolerating a missing status', () => {
    expect(progressOf({})).toEqual({
      phase: undefined,
      message: undefined,
      conditions: [],
    });
    expect(
      progressOf(
        withStatus({
          phase: 'Deploying',
          message: 'waiting',
          conditions: [
            { type: 'Ready', status: 'False', reason: 'Pending' },
            { type: 'GatewayReady', status: 'True' },
            'junk',
          ],
        }),
      ),
    ).toEqual({
      phase: 'Deploying',
      message: 'waiting',
      conditions: ['Ready=False (Pending)', 'GatewayReady=True'],
    });
  });

  it('decides reached, failed or pending', () => {
    expect(verdictOf(withStatus({ phase: 'Running' }), 'Running').state).toBe(
      'reached',
    );
    expect(verdictOf(withStatus({ phase: 'Failed' }), 'Running').state).toBe(
      'failed',
    );
    expect(verdictOf(withStatus({ phase: 'Deploying' }), 'Running').state).toBe(
      'pending',
    );
    expect(verdictOf({}, 'Running').state).toBe('pending');
  });

  it('describes progress in one log line', () => {
    expect(describeProgress('ModelDeployment a/b', progressOf({}))).toBe(
      'ModelDeployment a/b: phase (none yet)',
    );
    expect(
      describeProgress(
        'ModelDeployment a/b',
        progressOf(
          withStatus({
            phase: 'Running',
            message: 'ok',
            conditions: [{ type: 'Ready', status: 'True' }],
          }),
        ),
      ),
    ).toBe(
      'ModelDeployment a/b: phase Running; message "ok"; conditions Ready=True',
    );
  });

  it('explains a failure with the status message, else a failing condition', () => {
    expect(
      failureMessage(withStatus({ phase: 'Failed', message: 'no provider' })),
    ).toBe('no provider');
    expect(
      failureMessage(
        withStatus({
          phase: 'Failed',
          conditions: [
            { type: 'A', status: 'True', message: 'fine' },
            { type: 'B', status: 'False', message: 'broken' },
          ],
        }),
      ),
    ).toBe('broken');
    expect(failureMessage(withStatus({ phase: 'Failed' }))).toBe(
      'no message in its status',
    );
  });

  it('waits for a Model to be Ready and fails on Failed with its message', () => {
    const target = targetPhaseOf('models', undefined);
    const at = (status: object) =>
      verdictOf({ metadata: { generation: 1 }, status }, target);
    expect(at({ phase: 'Pending' }).state).toBe('pending');
    const downloading = at({
      phase: 'Downloading',
      progress: 40,
      conditions: [{ type: 'Ready', status: 'False', reason: 'Downloading' }],
    });
    expect(downloading.state).toBe('pending');
    expect(describeProgress('Model ml/qwen', downloading.progress)).toBe(
      'Model ml/qwen: phase Downloading; conditions Ready=False (Downloading)',
    );
    expect(
      at({ phase: 'Ready', pvcName: 'model-qwen', observedGeneration: 1 })
        .state,
    ).toBe('reached');
    const failed = {
      status: {
        phase: 'Failed',
        message: 'repository Qwen/nope not found (HTTP 404)',
      },
    };
    expect(verdictOf(failed, target).state).toBe('failed');
    expect(failureMessage(failed)).toBe(
      'repository Qwen/nope not found (HTTP 404)',
    );
  });

  it('waits for a stack to be Ready (Available with its current config) and fails on Failed with the failing condition', () => {
    const target = targetPhaseOf('stacks', undefined);
    const initializing = withStatus({
      phase: 'Initializing',
      conditions: [
        { type: 'ConfigGenerated', status: 'True' },
        { type: 'Available', status: 'False', reason: 'RolloutInProgress' },
      ],
    });
    expect(verdictOf(initializing, target).state).toBe('pending');
    expect(
      verdictOf(
        withStatus({
          phase: 'Ready',
          conditions: [
            {
              type: 'Available',
              status: 'True',
              reason: 'MinimumReplicasAvailable',
            },
          ],
        }),
        target,
      ).state,
    ).toBe('reached');
    const failed = withStatus({
      phase: 'Failed',
      conditions: [
        {
          type: 'ConfigGenerated',
          status: 'False',
          reason: 'UnknownDistribution',
          message: 'distribution "nope" is not one of starter, ollama',
        },
      ],
    });
    expect(verdictOf(failed, target).state).toBe('failed');
    expect(failureMessage(failed)).toBe(
      'distribution "nope" is not one of starter, ollama',
    );
    expect(() => targetPhaseOf('stacks', 'Available')).toThrow(
      'input.phase "Available" is not a phase stacks reach: use one of Pending, Initializing, Ready, Terminating',
    );
  });

  it('does not take the phase of a previous spec for the new one', () => {
    const reapplied = {
      metadata: { generation: 2 },
      status: { phase: 'Ready', observedGeneration: 1 },
    };
    const verdict = verdictOf(reapplied, 'Ready');
    expect(verdict.state).toBe('pending');
    expect(describeProgress('Model ml/qwen', verdict.progress)).toBe(
      'Model ml/qwen: phase Ready; status is for generation 1, the spec is at 2: waiting for the controller',
    );
    // An old failure does not fail the new spec either.
    expect(
      verdictOf(
        {
          metadata: { generation: 3 },
          status: { phase: 'Failed', observedGeneration: 2 },
        },
        'Ready',
      ).state,
    ).toBe('pending');
  });

  it('fails at once when the resource is being deleted', () => {
    const deleting = {
      metadata: { deletionTimestamp: '2026-01-01T00:00:00Z' },
      status: { phase: 'Terminating' },
    };
    expect(verdictOf(deleting, 'Ready').state).toBe('failed');
    expect(failureMessage(deleting)).toBe(
      'it is being deleted (metadata.deletionTimestamp is set); run the template again once it is gone',
    );
  });
});
