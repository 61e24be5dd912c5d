import { CATALOG } from '@runway-portal/cli';
import {
  controllerServiceAccount,
  serviceAccountUser,
} from '@runway-portal/e2e-testing';
import { CONTROLLERS } from './plan';

describe('controller access from the bundles the CLI installs', () => {
  it.each(CONTROLLERS.map(c => [c.name, c.component]))(
    '%s runs as the one ServiceAccount of its bundle (%s), in airunway-system',
    (_name, component) => {
      expect(component).toBeDefined();
      const account = controllerServiceAccount(component!);
      expect(account.namespace).toBe('airunway-system');
      expect(serviceAccountUser(account)).toBe(
        `system:serviceaccount:airunway-system:${account.name}`,
      );
    },
  );

  it('runs a controller for every bundle runway install --all installs, and for nothing else', () => {
    expect(CONTROLLERS.map(c => c.component).sort()).toEqual(
      CATALOG.map(e => e.name).sort(),
    );
  });
});
