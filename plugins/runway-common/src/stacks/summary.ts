/** "1 provider, 3 resources": what a generated config.yaml holds, as the detail page and the preview say it. @public */
export function configContentsText(generation?: {
  providerCount?: number;
  resourceCount?: number;
}): string {
  const count = (n: number, word: string) =>
    `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${count(generation?.providerCount ?? 0, 'provider')}, ${count(
    generation?.resourceCount ?? 0,
    'resource',
  )}`;
}
