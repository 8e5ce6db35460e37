export { MemoryClient, type DocumentUploadInput, type ImageMemoryInput, type SearchInput, type WaitForJobOptions } from './client.js';
export type { CallOptions, ClientOptions } from './http.js';
export * from './errors.js';
export { imageData, pdfBlob, type BinarySource } from './binary.js';
export { verifyWebhook, type VerifyWebhookInput, type WebhookHeaders } from './webhooks.js';
export type * from './types.js';
