import { downloadView, formatSeconds } from './modelDetail';

describe('downloadView', () => {
  it('shows percent, bytes, speed and time left while downloading', () => {
    expect(
      downloadView({
        phase: 'Downloading',
        progress: 50,
        download: {
          bytesDownloaded: 1536 * 1024 * 1024,
          totalBytes: 3 * 1024 ** 3,
          bytesPerSecond: 12 * 1024 * 1024,
          remainingSeconds: 200,
        },
      }),
    ).toEqual({
      percent: 50,
      bytes: '1.5 GiB of 3.0 GiB',
      speed: '12.0 MiB/s',
      eta: '3 min 20 s left',
    });
  });

  it('shows a Ready model as done, without speed, and nothing before the first report', () => {
    expect(
      downloadView({
        phase: 'Ready',
        download: {
          bytesDownloaded: 2048,
          totalBytes: 2048,
          bytesPerSecond: 0,
        },
      }),
    ).toEqual({
      percent: 100,
      bytes: '2.0 KiB of 2.0 KiB',
      speed: '',
      eta: '',
    });
    expect(downloadView({ phase: 'Pending' })).toEqual({
      percent: undefined,
      bytes: '',
      speed: '',
      eta: '',
    });
  });

  it('formats durations', () => {
    expect(formatSeconds(5)).toBe('5 s');
    expect(formatSeconds(3725)).toBe('1 h 2 min');
  });
});
