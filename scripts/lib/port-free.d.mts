// Types of port-free.mjs, which stays plain JavaScript so make can run it before npm ci.
export declare function bindError(port: number): Promise<string | undefined>;
export declare function portProblem(port: number, variable?: string): Promise<string | undefined>;
export declare function parsePort(text: string | undefined): number | undefined;
