/**
 * The join QR code, as terminal text (the CLI prints it) and as SVG (the projector and the teacher's
 * view show it). The only importer of qrcode. The SVG is our own output from the room's join address,
 * never from untrusted text, so a view may insert it as markup.
 */
import QRCode from 'qrcode';

/**
 * `text` (the join address) as a QR code drawn with block characters for a terminal (UTF-8, two
 * modules per character row), error correction M.
 * @throws Error when `text` is too long for a QR code (over ~2 kB)
 */
export async function qrTerminal(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'terminal', small: true, errorCorrectionLevel: 'M' });
}

/**
 * `text` (the join address) as a standalone SVG document string (black modules on white, a quiet
 * zone of 2 modules, a `viewBox` and no fixed size: it scales to its box), error correction M.
 * @throws Error when `text` is too long for a QR code (over ~2 kB)
 */
export async function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000ff', light: '#ffffffff' } });
}
