/// <reference lib="dom" />
// The QR code of a wallet URI, drawn in the browser (no request leaves the page) as an SVG data URL, which
// the page's Content-Security-Policy allows as an image source and nothing else.
import { toString as renderQr } from 'qrcode';
import { h } from './dom';

export async function qrImage(uri: string, description: string): Promise<HTMLImageElement> {
  const svg = await renderQr(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, color: { dark: '#111111', light: '#ffffff' } });
  return h('img', {
    class: 'qr',
    src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`,
    alt: description,
    width: 220,
    height: 220,
  });
}
