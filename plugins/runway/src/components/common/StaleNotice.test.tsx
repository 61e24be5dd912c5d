import { renderInTestApp } from '@backstage/test-utils';
import { screen } from '@testing-library/react';
import { freshness, unreachable } from '../../__testUtils__/fixtures';
import { StaleNotice } from './StaleNotice';

describe('StaleNotice', () => {
  it('says nothing for a healthy cluster or an unknown one', async () => {
    await renderInTestApp(
      <>
        <StaleNotice freshness={freshness('east')} />
        <StaleNotice />
      </>,
    );
    expect(screen.queryByTestId('stale-notice')).not.toBeInTheDocument();
  });

  it('says the page shows the last known state of an unreachable cluster, with its age', async () => {
    await renderInTestApp(
      <StaleNotice freshness={unreachable('west', 42_000)} />,
    );
    const notice = screen.getByTestId('stale-notice');
    expect(notice).toHaveAttribute('data-state', 'unreachable');
    expect(notice.className).toContain('MuiAlert-standardError');
    expect(notice).toHaveTextContent(
      /Stale: cluster west is unreachable \(last seen \d+ s ago\); this is its state as of \d+ s ago/,
    );
    expect(notice).toHaveTextContent(/cannot reach cluster "west"/);
  });

  it('names an unreachable cluster that never answered', async () => {
    await renderInTestApp(
      <StaleNotice
        freshness={freshness('west', {
          state: 'unreachable',
          lastSeen: null,
          synced: false,
          dataAgeMs: null,
          message: 'cluster "west" has not answered the portal yet.',
        })}
      />,
    );
    expect(screen.getByTestId('stale-notice')).toHaveTextContent(
      'Cluster west is unreachable (it has never answered the portal)',
    );
  });

  it.each([
    ['degraded', 'MuiAlert-standardWarning', 'Cluster east: degraded'],
    [
      'not-installed',
      'MuiAlert-standardInfo',
      'Cluster east: Runway not installed',
    ],
  ] as const)(
    'says a %s cluster is so, with why',
    async (state, alertClass, title) => {
      await renderInTestApp(
        <StaleNotice
          freshness={freshness('east', { state, message: `why ${state}` })}
        />,
      );
      const notice = screen.getByTestId('stale-notice');
      expect(notice.className).toContain(alertClass);
      expect(notice).toHaveTextContent(title);
      expect(notice).toHaveTextContent(`why ${state}`);
    },
  );
});
