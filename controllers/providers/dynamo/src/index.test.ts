import { loadWithoutStarting } from '@runway-portal/provider-shared/testing';

it('exports the provider definition without starting a process', async () => {
  const lib = await loadWithoutStarting<typeof import('./index')>(() =>
    jest.requireActual('./index'),
  );
  expect(lib.dynamoProvider).toMatchObject({
    name: 'dynamo',
    version: lib.DYNAMO_PROVIDER_VERSION,
    transform: expect.any(Function),
    mapStatus: expect.any(Function),
  });
});
