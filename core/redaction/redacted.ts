/** What a secret value becomes in a stored profile. */
export const REDACTED = '[REDACTED]';
