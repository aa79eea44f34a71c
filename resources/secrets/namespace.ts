// The secrets namespace: every resource holding key material lives here.
export const SECRETS_NAMESPACE = 'secrets';
