// The token call's grant types and RFC 6749's error codes, as the wire names them: the service
// refuses with them, the token call answers them (./wire.ts).
export const CLIENT_CREDENTIALS = 'client_credentials';
export const REFRESH_TOKEN = 'refresh_token';
export const GRANT_TYPES = [CLIENT_CREDENTIALS, REFRESH_TOKEN] as const;
export const INVALID_CLIENT = 'invalid_client';
export const INVALID_GRANT = 'invalid_grant';
export const INVALID_SCOPE = 'invalid_scope';
export const INSUFFICIENT_SCOPE = 'insufficient_scope';
