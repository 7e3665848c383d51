// Types of scripts/build-gateway.mjs for the TypeScript that imports it (tests' setup, benchmarks).
/** gateway/dist/main.js: the gateway built ahead. */
export declare const GATEWAY_BUNDLE: string;
/** Whether the bundle exists and is newer than every source it is built from. */
export declare function gatewayBundleFresh(): boolean;
/** Builds gateway/dist/main.js from gateway/src/main.ts. */
export declare function buildGateway(): Promise<void>;
/** The bundle, built first when missing or stale; null when it cannot be built. */
export declare function gatewayBundle(): Promise<string | null>;
/** The newest modification time of a file, or of any file in a directory. */
export declare function newest(path: string): number;
