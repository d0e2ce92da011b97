/**
 * The session map as a PNG: the export's SVG document (map-scene.ts `mapSvg`, every text escaped)
 * drawn on a detached canvas of its own pixel size (1920 × 1080 by default) and encoded.
 */

/**
 * Draws `svg` (a standalone SVG document of `width` × `height` px) and encodes it as a PNG.
 * @throws Error when the browser cannot draw or encode the image
 */
export async function svgToPng(svg: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image(width, height);
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('The browser could not draw the map.'));
      image.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('The browser gave no canvas to draw the map on.');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The browser could not encode the map as a PNG.'))), 'image/png'));
  } finally {
    URL.revokeObjectURL(url);
  }
}
