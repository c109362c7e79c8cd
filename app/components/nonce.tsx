import { createContext, useContext } from "react";

/** The per-request Content-Security-Policy nonce for Remix's inline scripts. */
const NonceContext = createContext<string>("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
