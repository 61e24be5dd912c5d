import { render, screen, waitFor } from '@testing-library/react';
import App from './App';

describe('App', () => {
  it('should render the sign-in page, with GitHub and without the guest when the config has no guest provider', async () => {
    process.env = {
      NODE_ENV: 'test',
      APP_CONFIG: [
        {
          data: {
            app: { title: 'Test' },
            backend: { baseUrl: 'http://localhost:7007' },
            techdocs: {
              storageUrl: 'http://localhost:7007/api/techdocs/static/docs',
            },
          },
          context: 'test',
        },
      ] as any,
    };

    const rendered = render(App.createRoot());

    await waitFor(() => {
      expect(rendered.baseElement).toBeInTheDocument();
    });
    expect(await screen.findByText('Sign in using GitHub')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /enter/i })).toBeNull();
  });
});
