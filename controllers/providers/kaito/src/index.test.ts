import { loadWithoutStarting } from '@runway-portal/provider-shared/testing';

it('exports the provider definition without starting a process', async () => {
  const lib = await loadWithoutStarting<typeof import('./index')>(() =>
    jest.requireActual('./index'),
  );
  expect(lib.kaitoProvider).toMatchObject({
    name: 'kaito',
    version: lib.KAITO_VERSION,
    transform: expect.any(Function),
    mapStatus: expect.any(Function),
  });
});
