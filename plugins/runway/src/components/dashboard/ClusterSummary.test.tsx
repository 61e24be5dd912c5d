import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import type { DoctorReport } from '../../api/types';
import { cluster, freshness, unreachable } from '../../__testUtils__/fixtures';
import { API, renderWithApi } from '../../__testUtils__/render';
import { ClusterSummary } from './ClusterSummary';

const server = setupServer();
registerMswTestHooks(server);

// Generous: the machine is shared with cluster tests; nothing here measures time.
jest.setTimeout(60_000);

const report = (checks: DoctorReport['checks']): DoctorReport => ({
  cluster: 'east',
  checkedAt: '2026-11-26T00:00:00.000Z',
  durationMs: 120,
  problems: checks.filter(c => c.status === 'fail' || c.status === 'warn')
    .length,
  checks,
});

const broken = report([
  { id: 'crd/modeldeployments.airunway.ai', status: 'ok', message: 'CRD ok' },
  {
    id: 'controller/core',
    status: 'fail',
    message:
      'controller core: Deployment airunway-system/airunway-core not found',
    fix: 'runway controller install core',
  },
  {
    id: 'gateway',
    status: 'warn',
    message: 'no Gateway in the cluster',
    fix: 'create a Gateway labelled airunway.ai/inference-gateway=true',
  },
  {
    id: 'webhook/airunway-core-validating',
    status: 'not-checked',
    message:
      'ValidatingWebhookConfiguration airunway-core-validating is registered; whether it answers is not checked: needs create on services/proxy',
    fix: 'runway doctor (the CLI probes it with your credentials)',
  },
]);

describe('ClusterSummary: the doctor', () => {
  it('shows "N problems" by meaning, opens the checks with their fixes, and checks again', async () => {
    let refreshed = 0;
    server.use(
      rest.get(`${API}/clusters/east/doctor`, (req, res, ctx) => {
        if (req.url.searchParams.get('refresh') === 'true') refreshed++;
        return res(
          ctx.json(
            report([
              { id: 'controller/core', status: 'ok', message: 'core ready' },
            ]),
          ),
        );
      }),
    );
    await renderWithApi(
      <ClusterSummary
        clusters={[cluster('east', { doctor: broken })]}
        states={[freshness('east')]}
      />,
    );
    const card = await screen.findByTestId('cluster-card-east');
    const chip = within(card).getByTestId('cluster-doctor-east');
    expect(chip).toHaveTextContent('2 problems');
    expect(chip.className).toContain('MuiChip-colorError');

    await userEvent.click(chip);
    const list = await screen.findByRole('list', {
      name: 'checks of cluster east',
    });
    const rows = within(list).getAllByRole('listitem');
    // Problems first, then what was not checked, then ok.
    expect(rows.map(r => r.getAttribute('data-status'))).toEqual([
      'fail',
      'warn',
      'not-checked',
      'ok',
    ]);
    expect(rows[0]).toHaveTextContent(
      'FAILcontroller core: Deployment airunway-system/airunway-core not found',
    );
    expect(rows[0]).toHaveTextContent('fix: runway controller install core');
    expect(rows[2]).toHaveTextContent('needs create on services/proxy');

    await userEvent.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() =>
      expect(
        within(
          screen.getByRole('list', { name: 'checks of cluster east' }),
        ).getAllByRole('listitem'),
      ).toHaveLength(1),
    );
    expect(refreshed).toBe(1);
    expect(chip).toHaveTextContent('no problems');
    expect(chip.className).toContain('MuiChip-colorSuccess');
  });

  it('warnings alone colour the chip as a warning; no chip before the first run', async () => {
    await renderWithApi(
      <ClusterSummary
        clusters={[
          cluster('east', {
            doctor: report([
              {
                id: 'gateway',
                status: 'warn',
                message: 'no Gateway',
                fix: 'x',
              },
            ]),
          }),
          cluster('west'),
        ]}
        states={[freshness('east'), freshness('west')]}
      />,
    );
    const chip = await screen.findByTestId('cluster-doctor-east');
    expect(chip).toHaveTextContent('1 problem');
    expect(chip.className).toContain('MuiChip-colorWarning');
    expect(screen.queryByTestId('cluster-doctor-west')).not.toBeInTheDocument();
  });

  it("a cluster without Runway shows the doctor's install fix", async () => {
    await renderWithApi(
      <ClusterSummary
        clusters={[
          cluster('east', {
            providers: [],
            doctor: report([
              {
                id: 'crd/modeldeployments.airunway.ai',
                status: 'fail',
                message: 'CRD modeldeployments.airunway.ai is not installed',
                fix: 'runway controller install',
              },
            ]),
          }),
        ]}
        states={[
          freshness('east', {
            state: 'not-installed',
            message: 'Runway is not installed in cluster "east".',
          }),
        ]}
      />,
    );
    expect(
      await screen.findByTestId('cluster-install-fix-east'),
    ).toHaveTextContent('Install: runway controller install');
    expect(screen.getByTestId('cluster-doctor-east')).toHaveTextContent(
      '1 problem',
    );
  });
  it('an unreachable cluster shows its last report as last known, uncoloured, never as a current verdict', async () => {
    await renderWithApi(
      <ClusterSummary
        clusters={[
          cluster('east', {
            doctor: report([{ id: 'gateway', status: 'ok', message: 'ok' }]),
          }),
        ]}
        states={[unreachable('east')]}
      />,
    );
    const chip = await screen.findByTestId('cluster-doctor-east');
    expect(chip).toHaveTextContent('no problems (last known)');
    expect(chip.className).not.toContain('MuiChip-colorSuccess');
  });
});
