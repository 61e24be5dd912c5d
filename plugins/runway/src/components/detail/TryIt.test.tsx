import { registerMswTestHooks } from '@backstage/test-utils';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { rest } from 'msw';
import { setupServer } from 'msw/node';
import {
  API,
  permissionsOverHttp,
  renderWithApi,
} from '../../__testUtils__/render';
import { deployment, freshness } from '../../__testUtils__/fixtures';
import { DeploymentDetail } from './DeploymentDetail';
import { TryIt } from './TryIt';

jest.setTimeout(30_000);

const server = setupServer();
registerMswTestHooks(server);
const target = { cluster: 'east', namespace: 'ml', name: 'llama' };
const CHAT = `${API}/deployments/east/ml/llama/chat`;

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;

function detail(phase: string) {
  const listed = deployment('east', 'ml', 'llama', { phase });
  return {
    ...listed,
    conditions: [],
    events: [],
    owned: [],
    clusters: [freshness('east')],
    errors: [],
  };
}

describe('TryIt', () => {
  it('sends the prompt and shows the answer as it streams in', async () => {
    const sent: any[] = [];
    server.use(
      rest.post(CHAT, async (req, res, ctx) => {
        sent.push(await req.json());
        return res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(
            `${chunk('Hello')}${chunk(', developer')}${chunk(
              '.',
            )}data: [DONE]\n\n`,
          ),
        );
      }),
    );
    await renderWithApi(
      <TryIt target={target} phase="Running" model="llama-3.1-8b" />,
    );
    expect(screen.getByText('llama-3.1-8b')).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Send' });
    expect(send).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Prompt'), 'Say hello');
    await userEvent.click(send);
    const answer = await screen.findByLabelText('answer');
    await waitFor(() => expect(answer).toHaveTextContent('Hello, developer.'));
    expect(sent).toEqual([
      {
        messages: [{ role: 'user', content: 'Say hello' }],
        max_tokens: 256,
      },
    ]);
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Stop' })).toBeDisabled(),
    );
  });

  it("shows the backend's error, and the part of the answer that came before a cut", async () => {
    server.use(
      rest.post(CHAT, (_req, res, ctx) =>
        res(
          ctx.set('Content-Type', 'text/event-stream'),
          ctx.body(
            `${chunk(
              'Partial',
            )}event: runway-error\ndata: the answer was cut at 262144 bytes (the portal's bound)\n\n`,
          ),
        ),
      ),
    );
    await renderWithApi(<TryIt target={target} phase="Running" />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'Tell me a story');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText(/the answer was cut at 262144 bytes/),
    ).toBeInTheDocument();
    expect(screen.getByText('The model did not answer')).toBeInTheDocument();
    expect(screen.getByLabelText('answer')).toHaveTextContent('Partial');
  });

  it("shows a refusal's message (409: not Running any more)", async () => {
    server.use(
      rest.post(CHAT, (_req, res, ctx) =>
        res(
          ctx.status(409),
          ctx.json({
            error: {
              name: 'ConflictError',
              message:
                'ModelDeployment ml/llama: the deployment is Deploying, not Running: it can answer once its phase is Running',
            },
          }),
        ),
      ),
    );
    await renderWithApi(<TryIt target={target} phase="Running" />);
    await userEvent.type(screen.getByLabelText('Prompt'), 'hi');
    await userEvent.click(screen.getByRole('button', { name: 'Send' }));
    expect(
      await screen.findByText(/the deployment is Deploying, not Running/),
    ).toBeInTheDocument();
  });

  it('is disabled, with the reason, while the deployment is not Running, and sends nothing', async () => {
    const sent: unknown[] = [];
    server.use(
      rest.post(CHAT, (req, res, ctx) => {
        sent.push(req.url);
        return res(ctx.status(500));
      }),
    );
    await renderWithApi(<TryIt target={target} phase="Deploying" />);
    expect(
      screen.getByText(
        /Try it is available once the deployment is Running; it is Deploying now/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText('Prompt')).not.toBeInTheDocument();
    expect(sent).toEqual([]);
  });

  it('names the bound a too long prompt breaks, and keeps Send disabled', async () => {
    await renderWithApi(<TryIt target={target} phase="Running" />);
    const prompt = screen.getByLabelText('Prompt');
    // Pasted, not typed: 16 KiB and one byte.
    await userEvent.click(prompt);
    await userEvent.paste('x'.repeat(16 * 1024 + 1));
    expect(
      await screen.findByText(/at most 16384 bytes \(16 KiB\) in all/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled();
  });
});

describe('the Try it tab', () => {
  async function renderDetail(allowed: boolean) {
    const permissions = permissionsOverHttp(
      ({ permission }) => permission !== 'runway.chat.send' || allowed,
    );
    server.use(
      rest.get(`${API}/deployments/east/ml/llama`, (_req, res, ctx) =>
        res(ctx.json(detail('Running'))),
      ),
      permissions.handler,
    );
    await renderWithApi(<DeploymentDetail target={target} />, {
      apis: permissions.apis,
    });
    await screen.findByRole('tab', { name: /Logs/ });
    // Asked about this deployment's cluster and namespace, as the backend checks.
    await waitFor(() =>
      expect(permissions.asked).toContainEqual({
        permission: 'runway.chat.send',
        resourceRef: 'east/ml',
      }),
    );
  }

  it('is shown with runway.chat.send, and opens the prompt', async () => {
    await renderDetail(true);
    await userEvent.click(await screen.findByRole('tab', { name: 'Try it' }));
    expect(await screen.findByLabelText('Prompt')).toBeInTheDocument();
  });

  it('is hidden without runway.chat.send', async () => {
    await renderDetail(false);
    // Give the answer time to arrive: the tab must stay absent.
    await new Promise(r => setTimeout(r, 200));
    expect(
      screen.queryByRole('tab', { name: 'Try it' }),
    ).not.toBeInTheDocument();
  });
});
