import { registerMswTestHooks } from '@backstage/test-utils';
import { signalApiRef } from '@backstage/plugin-signals-react';
import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import { model } from '../../__testUtils__/fixtures';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
  testSignals,
} from '../../__testUtils__/render';
import { ModelDetail } from './ModelDetail';

const server = setupServer();
registerMswTestHooks(server);
jest.setTimeout(60_000);

const target = { cluster: 'east', namespace: 'ml', name: 'tiny' };
const DOWNLOADING = {
  phase: 'Downloading',
  progress: 50,
  message: 'Downloading: 50% (1.5 GiB of 3.0 GiB, 12.0 MiB/s, 128 s left)',
  download: {
    bytesDownloaded: 1536 * 1024 * 1024,
    totalBytes: 3 * 1024 ** 3,
    bytesPerSecond: 12 * 1024 * 1024,
    remainingSeconds: 128,
  },
  conditions: [
    {
      type: 'Downloading',
      status: 'True',
      reason: 'JobRunning',
      message: 'the download Job runs',
      lastTransitionTime: new Date().toISOString(),
    },
  ],
};

function serveModel(status: Record<string, any>) {
  const listed = model('east', 'ml', 'tiny', status);
  server.use(
    rest.get(`${API}/models/east/ml/tiny`, (_req, res, ctx) =>
      res(
        ctx.json({
          ...listed,
          conditions: status.conditions ?? [],
          events: [],
          owned: [
            {
              apiVersion: 'v1',
              kind: 'PersistentVolumeClaim',
              metadata: { name: 'model-tiny', namespace: 'ml' },
            },
            {
              apiVersion: 'batch/v1',
              kind: 'Job',
              metadata: { name: 'model-download-tiny', namespace: 'ml' },
            },
          ],
          clusters: [{ cluster: 'east', synced: true, dataAgeMs: 0 }],
          errors: [],
        }),
      ),
    ),
  );
}

describe('ModelDetail', () => {
  it('shows the download live: percent, bytes, speed and time left, then Ready on a signal', async () => {
    serveModel(DOWNLOADING);
    const signals = testSignals();
    await renderWithApi(<ModelDetail target={target} />, {
      apis: [[signalApiRef, signals.api]],
    });
    const progress = await screen.findByLabelText('download progress');
    expect(within(progress).getByText('50%')).toBeInTheDocument();
    expect(progress).toHaveTextContent(
      '1.5 GiB of 3.0 GiB · 12.0 MiB/s · 2 min 8 s left',
    );
    expect(screen.getByText('HuggingFace org/tiny@main')).toBeInTheDocument();
    expect(
      screen.getByText(/model-tiny · model-download-tiny/),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('tab', { name: 'PVC and Job (2)' }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('tab', { name: 'Conditions (1)' }),
    ).toBeInTheDocument();

    serveModel({
      phase: 'Ready',
      progress: 100,
      download: {
        bytesDownloaded: 3 * 1024 ** 3,
        totalBytes: 3 * 1024 ** 3,
        bytesPerSecond: 0,
        remainingSeconds: 0,
      },
    });
    act(() =>
      signals.emit('runway:models', {
        kind: 'models',
        cluster: 'east',
        namespace: 'ml',
        changes: 1,
        eventsOnly: false,
      }),
    );
    expect(await screen.findByText('100%')).toBeInTheDocument();
    expect(screen.getByLabelText('download progress')).toHaveTextContent(
      '3.0 GiB of 3.0 GiB',
    );
    expect(screen.getByLabelText('phase Ready')).toBeInTheDocument();
  });

  it('deletes after confirmation, and says when it is gone', async () => {
    serveModel({ phase: 'Ready', progress: 100 });
    let deleted = false;
    server.use(
      rest.delete(`${API}/models/east/ml/tiny`, (_req, res, ctx) => {
        deleted = true;
        server.use(
          rest.get(`${API}/models/east/ml/tiny`, (_r, res2, ctx2) =>
            res2(
              ctx2.status(404),
              ctx2.json({ error: { name: 'NotFoundError', message: 'gone' } }),
            ),
          ),
        );
        return res(ctx.status(204));
      }),
    );
    await renderWithApi(<ModelDetail target={target} />);
    await userEvent.click(
      await screen.findByRole('button', { name: 'Delete' }),
    );
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent('Its PVC model-tiny');
    await userEvent.click(
      within(dialog).getByRole('button', { name: 'Delete' }),
    );
    expect(
      await screen.findByText(/Model ml\/tiny is deleted from cluster east/),
    ).toBeInTheDocument();
    expect(deleted).toBe(true);
  });

  it('disables Edit and Delete for a user without the permissions', async () => {
    serveModel({ phase: 'Ready', progress: 100 });
    const permissions = permissionsOverHttp(
      ({ permission }) =>
        permission !== 'runway.models.update' &&
        permission !== 'runway.models.delete',
    );
    server.use(permissions.handler);
    await renderWithApi(<ModelDetail target={target} />, {
      apis: permissions.apis,
    });
    await screen.findByLabelText('download progress');
    expect(
      await screen.findByRole('button', { name: 'Delete' }),
    ).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Edit' })).toBeDisabled();
  });
});
