import { describeLimitPassed, type LimitPassed, MemoryServiceError, RequestError } from '@memory/platform';

/**
 * Stable codes. The input errors are RequestErrors carrying the HTTP status the edge answers with; the pipeline
 * treats them as permanent (not retriable) and dead-letters the job.
 */
export const IMAGE_ERROR_CODES = Object.freeze({
  /** Not decodable: unknown bytes (415) or a known format that is truncated or corrupt (400). */
  unreadable: 'IMAGE.UNREADABLE',
  /** A recognised format outside the allow-list, SVG included (415). */
  unsupportedFormat: 'IMAGE.UNSUPPORTED_FORMAT',
  /** More encoded bytes than maxBytes (413). */
  tooLarge: 'IMAGE.TOO_LARGE',
  /** More pixels than maxPixels, or a side longer than maxSide (413). */
  tooManyPixels: 'IMAGE.TOO_MANY_PIXELS',
  /** Reading the image passed the time or memory one file may use (422). */
  tooComplex: 'IMAGE.TOO_COMPLEX',
  /** The OCR engine or its model files cannot be loaded here (not a problem with the image). */
  ocrUnavailable: 'IMAGE.OCR_UNAVAILABLE',
  /** read() after close(). */
  ocrClosed: 'IMAGE.OCR_CLOSED',
  /** A perceptual hash or descriptor that is not the shape this library produces. */
  invalidFeature: 'IMAGE.INVALID_FEATURE',
});

/** `detected` is the format the bytes claim (null when nothing was recognised): the edge answers 415 without one, 400 with one. */
export function unreadable(message: string, details: { detected: string | null; bytes: number } & Record<string, unknown>): RequestError {
  return new RequestError(details.detected === null ? 415 : 400, IMAGE_ERROR_CODES.unreadable, message, details);
}

export function unsupportedFormat(message: string, details: Record<string, unknown>): RequestError {
  return new RequestError(415, IMAGE_ERROR_CODES.unsupportedFormat, message, details);
}

export function tooLarge(message: string, details: Record<string, unknown>): RequestError {
  return new RequestError(413, IMAGE_ERROR_CODES.tooLarge, message, details);
}

export function tooManyPixels(message: string, details: Record<string, unknown>): RequestError {
  return new RequestError(413, IMAGE_ERROR_CODES.tooManyPixels, message, details);
}

export function ocrUnavailable(message: string, cause?: unknown): MemoryServiceError {
  return new MemoryServiceError(IMAGE_ERROR_CODES.ocrUnavailable, message, { retriable: false, cause });
}

export function invalidFeature(message: string): MemoryServiceError {
  return new MemoryServiceError(IMAGE_ERROR_CODES.invalidFeature, message);
}

/**
 * Reading the image passed the time or memory one file may use (the file workers' limits): it decodes to more
 * than can be read safely, as a decompression bomb does (a small file that expands to a huge bitmap).
 */
export function tooComplex(limit: LimitPassed): RequestError {
  return new RequestError(
    422,
    IMAGE_ERROR_CODES.tooComplex,
    `Reading the image needed ${describeLimitPassed(limit)}. Resize it to at most 4000 pixels a side, save it as an ordinary (not interlaced) JPEG or PNG, and upload it again.`,
    { ...limit },
  );
}
