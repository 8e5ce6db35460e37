import sharp from 'sharp';

/** Images the end-to-end tests draw themselves (sharp renders SVG), with words OCR can read. */
export async function drawReceipt(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="500">
    <rect width="900" height="500" fill="#fdfaf2"/>
    <rect x="40" y="40" width="820" height="90" fill="#c0392b"/>
    <text x="60" y="260" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="bold" fill="#111">GARDEN CENTRE</text>
    <text x="60" y="380" font-family="DejaVu Sans, Arial, sans-serif" font-size="64" font-weight="bold" fill="#111">RECEIPT 4417</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

export async function drawLandscape(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="500">
    <rect width="900" height="300" fill="#3b83d1"/>
    <rect y="300" width="900" height="200" fill="#2e8b3d"/>
    <circle cx="700" cy="110" r="70" fill="#f4d03f"/>
  </svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** The same picture as a user would send it again: half the size, re-encoded as JPEG. */
export async function nearDuplicate(image: Buffer): Promise<Buffer> {
  const { width } = await sharp(image).metadata();
  return sharp(image).resize({ width: Math.round((width ?? 900) / 2) }).jpeg({ quality: 70 }).toBuffer();
}

/** A picture per number, each different (colours and the number written on it), for runs that must not repeat one. */
export async function drawNumbered(n: number): Promise<Buffer> {
  const hue = (n * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="360">
    <rect width="640" height="360" fill="hsl(${hue}, 60%, 85%)"/>
    <circle cx="${80 + ((n * 53) % 480)}" cy="${80 + ((n * 31) % 200)}" r="60" fill="hsl(${(hue + 180) % 360}, 70%, 45%)"/>
    <text x="40" y="320" font-family="DejaVu Sans, Arial, sans-serif" font-size="56" font-weight="bold" fill="#111">PARCEL ${n}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}
