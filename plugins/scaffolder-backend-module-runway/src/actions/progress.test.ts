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
});
