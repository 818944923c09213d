// What the Worker build puts where the AI SDK imports `@ai-sdk/gateway` (vite.config.ts): the SDK
// reaches the gateway only for a model named by a string, and the shop always passes Google's
// model object (server/services/chat/assistant.ts). Anything that does reach it fails loudly.
const unused = (): never => {
  throw new Error('The AI Gateway is not part of this Worker: pass a provider model object.');
};

export const gateway = new Proxy(unused, { get: unused, apply: unused });
export const createGateway = unused;

/** No error ever comes from the gateway here, so none is one of its errors. */
export class GatewayError extends Error {
  static isInstance(_error: unknown): _error is GatewayError {
    return false;
  }
}
export class GatewayAuthenticationError extends GatewayError {}
