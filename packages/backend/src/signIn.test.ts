import { ConfigReader } from '@backstage/config';
import { signInProblem } from './signIn';

const providers = (data: ConstructorParameters<typeof ConfigReader>[0]) =>
  data ? new ConfigReader(data) : undefined;

describe('signInProblem', () => {
  it('lets development run with guest sign-in only', () => {
    expect(
      signInProblem(providers({ guest: {} }), 'development'),
    ).toBeUndefined();
  });

  it('refuses guest-only or no sign-in outside development, naming auth.providers and the fix', () => {
    for (const env of ['production', 'test', undefined]) {
      expect(signInProblem(providers({ guest: {} }), env)).toMatch(
        /^auth\.providers configures no sign-in provider this backend installs \(github\); found only guest\. .*auth\.providers\.github/,
      );
      expect(signInProblem(undefined, env)).toMatch(/found none/);
    }
  });

  it('refuses guest sign-in allowed outside development even next to a real provider', () => {
    const both = providers({
      guest: { dangerouslyAllowOutsideDevelopment: true },
      github: { production: {} },
    });
    expect(signInProblem(both, 'production')).toMatch(
      /auth\.providers\.guest\.dangerouslyAllowOutsideDevelopment/,
    );
  });

  it('accepts a real provider', () => {
    expect(
      signInProblem(
        providers({ github: { production: { clientId: 'x' } } }),
        'production',
      ),
    ).toBeUndefined();
  });
});
