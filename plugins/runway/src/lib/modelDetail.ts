/**
 * What a model's page says about its download: percent, bytes, speed and
 * time left, from `status.progress` and `status.download` as the model
 * operator writes them. Pure.
 */
import { formatBytes } from '@runway-portal/plugin-runway-common';

export interface DownloadView {
  /** 0-100, or undefined before the downloader reports any. */
  percent?: number;
  /** `1.5 GiB of 3.0 GiB`, or the bytes so far when the total is unknown; ''. */
  bytes: string;
  /** `12.0 MiB/s`; '' when not downloading. */
  speed: string;
  /** `3 min 20 s left`; '' when unknown. */
  eta: string;
}

export function formatSeconds(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

export function downloadView(status: {
  phase?: string;
  progress?: number;
  download?: {
    bytesDownloaded?: number;
    totalBytes?: number;
    bytesPerSecond?: number;
    remainingSeconds?: number;
  };
}): DownloadView {
  const d = status.download ?? {};
  const ready = status.phase === 'Ready';
  let percent =
    typeof status.progress === 'number' ? status.progress : undefined;
  if (percent === undefined && ready) percent = 100;
  let bytes = '';
  if (typeof d.bytesDownloaded === 'number')
    bytes = d.totalBytes
      ? `${formatBytes(d.bytesDownloaded)} of ${formatBytes(d.totalBytes)}`
      : formatBytes(d.bytesDownloaded);
  const downloading = status.phase === 'Downloading';
  const speed =
    downloading && d.bytesPerSecond ? `${formatBytes(d.bytesPerSecond)}/s` : '';
  const eta =
    downloading && typeof d.remainingSeconds === 'number'
      ? `${formatSeconds(d.remainingSeconds)} left`
      : '';
  return { percent, bytes, speed, eta };
}
