// The namespace upstream keeps rendered /etc files in.
export const FILES_NAMESPACE = 'files';
